#include "common/install_layout.hpp"

#include <unistd.h>

namespace perfzero::files {

namespace {

bool has_launcher(const std::filesystem::path& dir) { return ::access((dir / "perfzero-launch").c_str(), X_OK) == 0; }

}  // namespace

std::filesystem::path self_dir() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path(ec) : self.parent_path();
}

std::filesystem::path helper_dir_of(const std::filesystem::path& dir) {
  if (has_launcher(dir)) return dir;
  for (const auto& candidate : {dir.parent_path() / "libexec/perfzero", dir / "libexec/perfzero"}) {
    if (has_launcher(candidate)) return candidate;
  }
  return dir;
}

std::filesystem::path helper_dir() { return helper_dir_of(self_dir()); }

}  // namespace perfzero::files
