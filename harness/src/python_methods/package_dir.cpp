#include "python_methods/package_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "common/install_layout.hpp"

namespace perfzero::python_methods {

std::string package_dir() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("PERFZERO_PYTHON_PACKAGE_DIR"); env != nullptr && *env != '\0') {
    candidates.emplace_back(env);
  }
  candidates.push_back(files::self_dir().parent_path() / "share/perfzero/python");
  candidates.emplace_back(PERFZERO_SOURCE_PYTHON_DIR);
  std::error_code ec;
  for (const auto& dir : candidates) {
    if (fs::is_regular_file(dir / "perfzero" / "__init__.py", ec))
      return fs::absolute(dir, ec).lexically_normal().string();
  }
  return "";
}

}  // namespace perfzero::python_methods
