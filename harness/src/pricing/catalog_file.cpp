#include "pricing/catalog_file.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "common/install_layout.hpp"

namespace perfzero::pricing {

std::string find_catalog(const std::string& given) {
  namespace fs = std::filesystem;
  if (!given.empty()) return given;
  if (const char* env = std::getenv("PERFZERO_CATALOG"); env != nullptr && *env != '\0') return env;
  std::error_code ec;
  std::vector<fs::path> candidates{files::self_dir().parent_path() / "share/perfzero/catalog.yaml"};
  candidates.emplace_back(PERFZERO_SOURCE_CATALOG);
  for (const auto& c : candidates) {
    if (fs::is_regular_file(c, ec)) return c.string();
  }
  return "";
}

}  // namespace perfzero::pricing
