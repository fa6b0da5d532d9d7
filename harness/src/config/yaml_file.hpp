#pragma once
// Reads the text of a YAML file a user names on the command line (a suite, a price catalog):
// only a regular file of a sane size, so a FIFO does not block, /dev/zero does not run for ever
// and a file growing while read does not take all memory.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace perfzero::config::yaml {

inline constexpr std::uintmax_t kMaxYamlFileBytes = 16U << 20;

struct FileKind {
  std::string_view what;  // "suite file": names it in errors
  std::string_view flag;  // "--config": the flag that takes it
};

// The whole text; a ConfigError naming the file and the problem otherwise.
std::string read_yaml_file(const std::filesystem::path& path, const FileKind& kind);

}  // namespace perfzero::config::yaml
