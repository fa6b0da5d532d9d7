#include "runner/log_cap.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/fd_guard.hpp"

namespace perfzero::runner {

namespace {

bool write_all(int fd, const char* data, std::size_t size, off_t at) {
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, data, size, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
    at += n;
  }
  return true;
}

// Moves [from, from + size) down to `to` (< from) in chunks; the ranges may overlap.
bool move_down(int fd, off_t from, off_t to, std::uint64_t size) {
  std::vector<char> buffer(1 << 20);
  while (size > 0) {
    const std::size_t want = std::min<std::uint64_t>(size, buffer.size());
    const ssize_t n = ::pread(fd, buffer.data(), want, from);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    if (!write_all(fd, buffer.data(), static_cast<std::size_t>(n), to)) return false;
    from += n;
    to += n;
    size -= static_cast<std::uint64_t>(n);
  }
  return true;
}

}  // namespace

std::uint64_t cap_log(const std::filesystem::path& path, std::uint64_t max_bytes) {
  // Most logs are under the cap: one lstat (which follows no link) says so without opening it.
  struct stat seen {};
  if (::lstat(path.c_str(), &seen) != 0 || !S_ISREG(seen.st_mode) ||
      static_cast<std::uint64_t>(seen.st_size) <= max_bytes) {
    return 0;
  }
  // The child could have replaced the log with a FIFO or a symlink: only a regular file is cut.
  const FdGuard log{::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
  struct stat info {};
  if (log.fd < 0 || ::fstat(log.fd, &info) != 0 || !S_ISREG(info.st_mode)) return 0;
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size <= max_bytes) return 0;
  const std::uint64_t head = max_bytes / 2;
  const std::uint64_t tail = max_bytes - head;
  const std::uint64_t dropped = size - head - tail;
  std::string marker = fmt::format(
      "\n[perfzero: {} bytes of output dropped here; the log keeps its first {} and last {} bytes "
      "(--max_log_bytes)]\n",
      dropped, head, tail);
  // Just over the cap: cutting would not make the log smaller; keep it whole.
  if (marker.size() >= dropped) return 0;
  const auto marker_at = static_cast<off_t>(head);
  const auto tail_to = static_cast<off_t>(head + marker.size());
  const auto tail_from = static_cast<off_t>(size - tail);
  // The marker is far shorter than what is dropped, so the tail's new place is before its old one.
  if (!move_down(log.fd, tail_from, tail_to, tail) || !write_all(log.fd, marker.data(), marker.size(), marker_at) ||
      ::ftruncate(log.fd, tail_to + static_cast<off_t>(tail)) != 0) {
    return 0;
  }
  return dropped;
}

}  // namespace perfzero::runner
