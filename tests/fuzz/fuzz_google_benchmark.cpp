// libFuzzer target: any bytes as a Google Benchmark JSON report (child_results/google_benchmark_result.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "child_results/google_benchmark_result.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parsed = perfzero::child_results::parse_google_benchmark(
      std::string_view(reinterpret_cast<const char*>(data), size));  // NOLINT(*-reinterpret-cast)
  if (const auto* result = std::get_if<perfzero::child_results::ChildResult>(&parsed)) (void)result->extras.dump(1);
  return 0;
}
