// libFuzzer target: any bytes as a YAML suite file. The loader must accept the suite or throw a
// ConfigError with a message (file:line:column), never crash, hang, or throw anything else
// (docs/suites.md).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/errors.hpp"
#include "config/suite.hpp"
#include "perfzero/registry.hpp"

namespace {

void method(perfzero::Context& /*ctx*/) {}

// Methods with one parameter of each type, so typed parameters and sweeps are reached.
const perfzero::Registry& registry() {
  static const perfzero::Registry r = [] {
    perfzero::Registry out;
    using perfzero::ParamType;
    out.add({"fam", "Cls", "benchmark_a", "a", {{"n", ParamType::integer, std::int64_t{1}, "n"}}, method});
    out.add({"fam",
             "Cls",
             "benchmark_b",
             "b",
             {{"x", ParamType::number, 1.0, "x"},
              {"on", ParamType::boolean, false, "on"},
              {"s", ParamType::string, std::string("v"), "s"}},
             method});
    return out;
  }();
  return r;
}

const std::filesystem::path& suite_path() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("perfzero-fuzz-suite-" + std::to_string(::getpid()) + ".yaml");
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(suite_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));  // NOLINT(*-reinterpret-cast)
  }
  try {
    (void)perfzero::config::load_suite(suite_path(), registry());
  } catch (const perfzero::ConfigError&) {
    // The expected answer to a broken suite.
  } catch (...) {
    std::abort();  // anything else reaches the user as "internal error": a bug
  }
  return 0;
}
