#include "config/yaml_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/fd_guard.hpp"

namespace perfzero::config::yaml {

std::string read_yaml_file(const std::filesystem::path& path, const FileKind& kind) {
  const std::string file = path.string();
  // Checked on the open file, not the path, so nothing can be swapped in between. O_NONBLOCK: a
  // FIFO opens at once instead of waiting for a writer, and is then refused.
  const FdGuard in{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (in.fd < 0) {
    if (errno == ENOENT) throw ConfigError(fmt::format("{}: no such {}", file, kind.what));
    throw ConfigError(fmt::format("{}: cannot read: {}", file, std::strerror(errno)));
  }
  struct stat info {};
  if (::fstat(in.fd, &info) != 0) throw ConfigError(fmt::format("{}: cannot read: {}", file, std::strerror(errno)));
  if (S_ISDIR(info.st_mode)) {
    throw ConfigError(fmt::format("{}: is a directory; {} expects a {} (.yaml)", file, kind.flag, kind.what));
  }
  if (!S_ISREG(info.st_mode)) {
    throw ConfigError(fmt::format("{}: is not a regular file (a FIFO, device or socket); {} expects a {}", file,
                                  kind.flag, kind.what));
  }
  if (static_cast<std::uintmax_t>(info.st_size) > kMaxYamlFileBytes) {
    throw ConfigError(
        fmt::format("{}: larger than {} MiB; a {} is expected to be small", file, kMaxYamlFileBytes >> 20, kind.what));
  }
  // Read by the chunk, not into a buffer of the limit's size (a suite is a few hundred bytes), and
  // to the end, however far the file grew since fstat.
  std::string text;
  std::array<char, std::size_t{64} << 10> chunk{};
  while (true) {
    const ssize_t n = ::read(in.fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw ConfigError(fmt::format("{}: cannot read: {}", file, std::strerror(errno)));
    if (n == 0) return text;
    text.append(chunk.data(), static_cast<std::size_t>(n));
    if (text.size() > kMaxYamlFileBytes) {
      throw ConfigError(fmt::format("{}: grew past {} MiB while being read", file, kMaxYamlFileBytes >> 20));
    }
  }
}

}  // namespace perfzero::config::yaml
