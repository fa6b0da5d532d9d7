#include "common/sync_behind.hpp"

#include <fcntl.h>
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

SyncBehind::SyncBehind() : queue_([this](std::vector<Item>& batch) { sync_batch(batch); }, kGatherTime) {}

void SyncBehind::file(const std::filesystem::path& path) { queue_.push({-1, path}); }

void SyncBehind::descriptor(int fd, const std::filesystem::path& name) { queue_.push({fd, name}); }

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
  if (first) {
    std::lock_guard lock(failure_mutex_);
    if (!failure_) failure_ = std::move(first);
  }
}

void SyncBehind::flush() {
  queue_.wait_idle();
  std::lock_guard lock(failure_mutex_);
  if (failure_) {
    std::string why = std::move(*failure_);
    failure_.reset();
    throw OutputError(why);
  }
}

std::optional<std::string> SyncBehind::failure() {
  std::lock_guard lock(failure_mutex_);
  auto out = std::move(failure_);
  failure_.reset();
  return out;
}

SyncBehind& sync_behind() {
  static SyncBehind instance;
  return instance;
}

}  // namespace perfzero::files
