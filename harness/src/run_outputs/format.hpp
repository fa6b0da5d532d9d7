#pragma once
// Small text helpers the table-like reporters share.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace perfzero::run_outputs {

// Six significant digits; `missing` when there is no value.
std::string number(const std::optional<double>& value, const std::string& missing);
// Dumps JSON for a file: invalid UTF-8 replaced, never thrown on.
std::string dump_json(const nlohmann::json& value, int indent);

}  // namespace perfzero::run_outputs
