// libFuzzer target: any bytes as a Google Benchmark JSON report (runner/google_benchmark_result.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runner/google_benchmark_result.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parsed = perfzero::runner::parse_google_benchmark(
      std::string_view(reinterpret_cast<const char*>(data), size));  // NOLINT(*-reinterpret-cast)
  if (const auto* result = std::get_if<perfzero::runner::ChildResult>(&parsed)) (void)result->extras.dump(1);
  return 0;
}
