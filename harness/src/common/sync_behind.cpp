#include "common/sync_behind.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include <fmt/format.h>

#include "common/errors.hpp"

namespace perfzero::files {

namespace {

std::optional<std::string> sync_one(int fd, const std::filesystem::path& path) {
  if (fd >= 0) {
    if (::fdatasync(fd) == 0) return std::nullopt;
    return fmt::format("cannot write {} to disk: {}", path.string(), std::strerror(errno));
  }
  // O_NONBLOCK: a FIFO put where the report was must not hang the queue (and every flush) on open.
  const int opened = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  // Gone since (a trial run again replaced it): nothing of it is left to keep.
  if (opened < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(opened, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
    ::close(opened);
    return std::nullopt;  // not what the harness wrote there: not ours to keep
  }
  const bool ok = ::fsync(opened) == 0;
  const int saved = errno;
  ::close(opened);
  if (ok) return std::nullopt;
  return fmt::format("cannot write {} to disk: {}", path.string(), std::strerror(saved));
}

}  // namespace

SyncBehind::SyncBehind() : thread_([this] { loop(); }) {}

SyncBehind::~SyncBehind() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void SyncBehind::file(const std::filesystem::path& path) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({-1, path});
  }
  wake_.notify_one();
}

void SyncBehind::descriptor(int fd, const std::filesystem::path& name) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({fd, name});
  }
  wake_.notify_one();
}

void SyncBehind::sync_batch(std::vector<Item>& batch) {
  // Files first, then their directories (a rename is durable once its directory is), then the
  // journal: within a batch, a trial's journal line is not made durable before its report.
  std::set<std::filesystem::path> dirs;
  std::set<std::pair<int, std::filesystem::path>> fds;
  std::optional<std::string> first;
  for (const Item& item : batch) {
    if (item.fd >= 0) {
      fds.insert({item.fd, item.path});
      continue;
    }
    if (auto bad = sync_one(-1, item.path); bad && !first) first = std::move(bad);
    dirs.insert(item.path.parent_path());
  }
  for (const auto& dir : dirs) {
    if (auto bad = sync_one(-1, dir); bad && !first) first = std::move(bad);
  }
  for (const auto& [fd, name] : fds) {
    if (auto bad = sync_one(fd, name); bad && !first) first = std::move(bad);
  }
  batch.clear();
  if (first) {
    std::lock_guard lock(mutex_);
    if (!failure_) failure_ = std::move(first);
  }
}

void SyncBehind::loop() {
  // SCHED_IDLE: the syncs run while a trial does, and must not take a core from the method being
  // measured; an fsync waits on the disk, so the little CPU it needs is found between the method's
  // time slices. (Lowering a thread's own policy needs no privilege; where it fails, it runs as before.)
  const sched_param idle{};
  (void)::sched_setscheduler(0, SCHED_IDLE, &idle);
  std::vector<Item> batch;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left
    batch.swap(queue_);
    busy_ = true;
    lock.unlock();
    sync_batch(batch);
    lock.lock();
    busy_ = false;
    idle_.notify_all();
  }
}

void SyncBehind::flush() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return queue_.empty() && !busy_; });
  if (failure_) {
    std::string why = std::move(*failure_);
    failure_.reset();
    throw OutputError(why);
  }
}

std::optional<std::string> SyncBehind::failure() {
  std::lock_guard lock(mutex_);
  auto out = std::move(failure_);
  failure_.reset();
  return out;
}

SyncBehind& sync_behind() {
  static SyncBehind instance;
  return instance;
}

}  // namespace perfzero::files
