#pragma once
// The result file protocol between a benchmark child and the harness (docs/protocol.md).
// The child writes one JSON object to the path in $PERFZERO_RESULT_FILE.
#include <string>

#include <nlohmann/json.hpp>

#include "perfzero/context.hpp"

namespace perfzero::detail {

inline constexpr const char* kResultFileEnv = "PERFZERO_RESULT_FILE";
inline constexpr int kResultProtocolVersion = 1;

nlohmann::json context_to_result(const Context& context);

}  // namespace perfzero::detail
