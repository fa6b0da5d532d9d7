// libFuzzer target: any bytes as fio's and as iperf3's JSON report (child_results/tool_output.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "child_results/tool_output.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);  // NOLINT(*-reinterpret-cast)
  for (const auto& parsed : {perfzero::child_results::parse_fio(text), perfzero::child_results::parse_iperf3(text)}) {
    if (const auto* result = std::get_if<perfzero::child_results::ChildResult>(&parsed)) (void)result->extras.dump(1);
  }
  return 0;
}
