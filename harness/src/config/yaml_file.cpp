#include "config/yaml_file.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "common/errors.hpp"

namespace perfzero::config::yaml {

std::string read_yaml_file(const std::filesystem::path& path, const FileKind& kind) {
  const std::string file = path.string();
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found)
    throw ConfigError(fmt::format("{}: no such {}", file, kind.what));
  if (ec) throw ConfigError(fmt::format("{}: cannot read: {}", file, ec.message()));
  if (status.type() == std::filesystem::file_type::directory) {
    throw ConfigError(fmt::format("{}: is a directory; {} expects a {} (.yaml)", file, kind.flag, kind.what));
  }
  if (status.type() != std::filesystem::file_type::regular) {
    throw ConfigError(fmt::format("{}: is not a regular file (a FIFO, device or socket); {} expects a {}", file,
                                  kind.flag, kind.what));
  }
  if (std::filesystem::file_size(path, ec) > kMaxYamlFileBytes) {
    throw ConfigError(
        fmt::format("{}: larger than {} MiB; a {} is expected to be small", file, kMaxYamlFileBytes >> 20, kind.what));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(fmt::format("{}: cannot read: {}", file, std::strerror(errno)));
  // Read by the chunk, not into a buffer of the limit's size: a suite is a few hundred bytes.
  std::string text;
  std::array<char, std::size_t{64} << 10> chunk{};
  while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxYamlFileBytes) {
      throw ConfigError(fmt::format("{}: grew past {} MiB while being read", file, kMaxYamlFileBytes >> 20));
    }
  }
  if (in.bad()) throw ConfigError(fmt::format("{}: cannot read: {}", file, std::strerror(errno)));
  return text;
}

}  // namespace perfzero::config::yaml
