// libFuzzer target: any bytes as a price catalog (perfzero report --catalog). The loader must
// return a catalog or throw a ConfigError naming file:line:column, never crash, hang or throw
// anything else (docs/report.md).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "common/errors.hpp"
#include "input_file.hpp"
#include "pricing/price_catalog.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& path = perfzero::fuzz::write_input_file("perfzero-fuzz-price-catalog", data, size);
  try {
    (void)perfzero::pricing::load_catalog(path);
  } catch (const perfzero::ConfigError&) {
    // The expected answer to a broken catalog.
  } catch (...) {
    std::abort();  // anything else reaches the user as "internal error": a bug
  }
  return 0;
}
