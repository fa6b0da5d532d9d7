// libFuzzer target: any bytes as a child's result.json. The reader must return a result or a
// message, never crash, throw or take unbounded time (docs/protocol.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "child_results/child_result.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parsed = perfzero::child_results::parse_child_result(
      std::string_view(reinterpret_cast<const char*>(data), size));  // NOLINT(*-reinterpret-cast)
  // Dumping is what the reporters do with extras: it must stay bounded too.
  if (const auto* result = std::get_if<perfzero::child_results::ChildResult>(&parsed)) (void)result->extras.dump(1);
  return 0;
}
