#include "common/program_path.hpp"

#include <unistd.h>

#include "common/text.hpp"

namespace perfzero::files {

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::filesystem::path find_program(const std::string& name, const std::string& path_env) {
  if (name.find('/') != std::string::npos) return is_executable_file(name) ? std::filesystem::path(name) : "";
  for (const auto& dir : text::split(path_env, ':')) {
    if (dir.empty()) continue;
    auto candidate = std::filesystem::path(dir) / name;
    if (is_executable_file(candidate)) return candidate;
  }
  return "";
}

}  // namespace perfzero::files
