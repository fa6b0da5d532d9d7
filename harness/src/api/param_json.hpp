#pragma once
// Parameters cross the harness/worker boundary as a JSON object; this keeps both sides in step.
#include <nlohmann/json.hpp>

#include "perfzero/param.hpp"

namespace perfzero::detail {

nlohmann::json params_to_json(const ParamMap& params);
// Throws std::invalid_argument naming the key whose value is not a scalar.
ParamMap params_from_json(const nlohmann::json& object);

}  // namespace perfzero::detail
