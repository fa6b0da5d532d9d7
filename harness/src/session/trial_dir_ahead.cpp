#include "session/trial_dir_ahead.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <utility>

namespace perfzero::session {

bool worth_making_ahead(const std::filesystem::path& run_dir) { return !in_memory_file_system(run_dir); }

TrialDirAhead::TrialDirAhead(TrialTmpDirs& tmp_dirs, bool make_ahead) : tmp_dirs_(tmp_dirs) {
  if (make_ahead) thread_ = std::thread([this] { run(); });
}

TrialDirAhead::~TrialDirAhead() {
  if (!makes_ahead()) return;
  discard();
  {
    const std::lock_guard lock(mutex_);
    quit_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void TrialDirAhead::prepare(const std::filesystem::path& trial_dir, const std::filesystem::path& log_name) {
  if (!makes_ahead()) return;
  {
    std::unique_lock lock(mutex_);
    wait(lock);
    job_ = trial_dir;
    log_name_ = log_name;
    busy_ = true;
    ready_.reset();
  }
  cv_.notify_all();
}

void TrialDirAhead::wait(std::unique_lock<std::mutex>& lock) {
  cv_.wait(lock, [&] { return !busy_; });
}

bool TrialDirAhead::take(const std::filesystem::path& trial_dir) {
  std::unique_lock lock(mutex_);
  wait(lock);
  const bool ours = ready_ && *ready_ == trial_dir;
  if (ours) ready_.reset();
  return ours;
}

void TrialDirAhead::discard() {
  std::unique_lock lock(mutex_);
  wait(lock);
  if (!ready_) return;
  // Nothing ran in it: an empty log, an empty TMPDIR and the directory, all made here.
  const std::filesystem::path dir = *std::exchange(ready_, std::nullopt);
  ::unlink((dir / log_name_).c_str());
  ::rmdir((dir / "tmp").c_str());
  ::rmdir(dir.c_str());
  if (made_parent_) ::rmdir(dir.parent_path().c_str());  // a new case's directory, made for this trial
}

void TrialDirAhead::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    cv_.wait(lock, [&] { return quit_ || (busy_ && job_); });
    if (quit_) return;
    lock.unlock();
    const bool made = make();
    lock.lock();
    if (made) ready_ = job_;
    job_.reset();
    busy_ = false;
    cv_.notify_all();
  }
}

bool TrialDirAhead::make() {
  std::error_code ec;
  made_parent_ = !std::filesystem::exists(job_->parent_path(), ec);
  // Only a new directory: create_directories is false for one that exists.
  if (!std::filesystem::create_directories(*job_, ec) || ec) return false;
  try {
    tmp_dirs_.make(*job_);
  } catch (const std::exception&) {
    return false;  // the harness thread tries again and reports it
  }
  const int fd = ::open((*job_ / log_name_).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

}  // namespace perfzero::session
