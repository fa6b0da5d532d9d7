// libFuzzer target: any bytes as a price catalog (perfzero report --catalog). The loader must
// return a catalog or throw a ConfigError naming file:line:column, never crash, hang or throw
// anything else (docs/report.md).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/errors.hpp"
#include "pricing/price_catalog.hpp"

namespace {

const std::filesystem::path& catalog_path() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("perfzero-fuzz-catalog-" + std::to_string(::getpid()) + ".yaml");
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(catalog_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));  // NOLINT(*-reinterpret-cast)
  }
  try {
    (void)perfzero::pricing::load_catalog(catalog_path());
  } catch (const perfzero::ConfigError&) {
    // The expected answer to a broken catalog.
  } catch (...) {
    std::abort();  // anything else reaches the user as "internal error": a bug
  }
  return 0;
}
