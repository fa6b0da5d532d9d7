#include "run_outputs/format.hpp"

#include <fmt/format.h>

namespace perfzero::run_outputs {

std::string number(const std::optional<double>& value, const std::string& missing) {
  return value ? fmt::format("{:.6g}", *value) : missing;
}

std::string dump_json(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace perfzero::run_outputs
