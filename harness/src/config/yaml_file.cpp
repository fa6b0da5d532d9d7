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

namespace {

// "LINE:COLUMN" of byte `at`, columns counted in bytes as yaml-cpp counts them.
std::string position(std::string_view text, std::size_t at) {
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return fmt::format("{}:{}", line, at - line_start + 1);
}

// yaml-cpp decodes UTF-16 and UTF-32 by their byte order marks and reads any other bytes as it can: a
// binary file then fails far from its cause with a garbled message. A suite is text: a NUL or a
// control character other than tab and line breaks says it is not, and a UTF-16 or UTF-32 file is
// named as such. Bytes that are not UTF-8 (a Latin-1 name, a file name's bytes) stay allowed.
void expect_text(const std::string& file, std::string_view text, const FileKind& kind) {
  struct Mark {
    std::string_view bytes;
    std::string_view encoding;
  };
  for (const Mark& m : {Mark{std::string_view("\x00\x00\xFE\xFF", 4), "UTF-32"},
                        Mark{std::string_view("\xFF\xFE\x00\x00", 4), "UTF-32"}, Mark{"\xFE\xFF", "UTF-16"},
                        Mark{"\xFF\xFE", "UTF-16"}}) {
    if (text.substr(0, m.bytes.size()) == m.bytes) {
      throw ConfigError(
          fmt::format("{}: starts with a {} byte order mark; a {} must be UTF-8 text (a {} file "
                      "converts with iconv -f {} -t UTF-8)",
                      file, m.encoding, kind.what, m.encoding, m.encoding));
    }
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') continue;
    if (c == 0) {
      throw ConfigError(
          fmt::format("{}:{}: is not text: it holds a NUL byte (a binary file, or UTF-16 without a "
                      "byte order mark); a {} must be UTF-8 text",
                      file, position(text, i), kind.what));
    }
    throw ConfigError(
        fmt::format("{}:{}: is not text: it holds the control character 0x{:02X}; a {} must be UTF-8 "
                    "text",
                    file, position(text, i), c, kind.what));
  }
}

}  // namespace

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
    if (n == 0) {
      expect_text(file, text, kind);
      return text;
    }
    text.append(chunk.data(), static_cast<std::size_t>(n));
    if (text.size() > kMaxYamlFileBytes) {
      throw ConfigError(fmt::format("{}: grew past {} MiB while being read", file, kMaxYamlFileBytes >> 20));
    }
  }
}

}  // namespace perfzero::config::yaml
