#include "child_results/untrusted_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/fd_guard.hpp"

namespace perfzero::child_results {

namespace {

std::string file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

}  // namespace

UntrustedFile read_untrusted_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                                  std::string_view limit_source) {
  UntrustedFile out;
  // O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting for one.
  // O_NOFOLLOW: a symlink (to /dev/zero, to a file outside the trial) is refused, not followed.
  const FdGuard file{::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    if (errno == ENOENT) {
      out.missing = true;
    } else if (errno == ELOOP) {
      out.problem = fmt::format("{} is a symbolic link; only a regular file is read", path.filename().string());
    } else {
      out.problem = fmt::format("cannot open {}: {}", path.filename().string(), std::strerror(errno));
    }
    return out;
  }
  struct stat info {};
  if (::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    out.problem =
        fmt::format("{} is {}; only a regular file is read", path.filename().string(), file_kind(info.st_mode));
    return out;
  }
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size > max_bytes) {
    out.problem = fmt::format("{} has {} bytes, over the limit of {}{}", path.filename().string(), size, max_bytes,
                              limit_source.empty() ? std::string() : fmt::format(" ({})", limit_source));
    return out;
  }
  std::string text(size, '\0');
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(file.fd, text.data() + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      out.problem = fmt::format("cannot read {}: {}", path.filename().string(), std::strerror(errno));
      return out;
    }
    if (n == 0) break;  // shrank while we read: keep what was there
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  out.text = std::move(text);
  return out;
}

}  // namespace perfzero::child_results
