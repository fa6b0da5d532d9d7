#pragma once
// The result file protocol between a benchmark child and the harness (docs/protocol.md).
// The child writes one JSON object to the path in $PERFZERO_RESULT_FILE.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perfzero/context.hpp"

namespace perfzero::detail {

inline constexpr const char* kResultFileEnv = "PERFZERO_RESULT_FILE";
inline constexpr int kResultProtocolVersion = 1;

nlohmann::json context_to_result(const Context& context);
// The `repetitions` list of the result file (docs/protocol.md).
nlohmann::json repetitions_to_result(const std::vector<RepetitionSeries>& series);

}  // namespace perfzero::detail
