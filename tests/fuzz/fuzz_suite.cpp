// libFuzzer target: any bytes as a YAML suite file. The loader must accept the suite or throw a
// ConfigError with a message (file:line:column), never crash, hang, or throw anything else
// (docs/suites.md).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "common/errors.hpp"
#include "config/suite.hpp"
#include "input_file.hpp"
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& path = perfzero::fuzz::write_input_file("perfzero-fuzz-suite", data, size);
  try {
    (void)perfzero::config::load_suite(path, registry());
  } catch (const perfzero::ConfigError&) {
    // The expected answer to a broken suite.
  } catch (...) {
    std::abort();  // anything else reaches the user as "internal error": a bug
  }
  return 0;
}
