#include "param_json.hpp"

#include <stdexcept>

namespace perfzero::detail {

nlohmann::json params_to_json(const ParamMap& params) {
  nlohmann::json out = nlohmann::json::object();
  // A plain loop variable: clang 14 cannot capture structured bindings in lambdas.
  for (const auto& entry : params) {
    std::visit([&](const auto& v) { out[entry.first] = v; }, entry.second);
  }
  return out;
}

ParamMap params_from_json(const nlohmann::json& object) {
  if (!object.is_object()) throw std::invalid_argument("parameters must be a JSON object");
  ParamMap params;
  for (const auto& [name, value] : object.items()) {
    if (value.is_boolean()) {
      params[name] = value.get<bool>();
    } else if (value.is_number_integer()) {
      params[name] = value.get<std::int64_t>();
    } else if (value.is_number()) {
      params[name] = value.get<double>();
    } else if (value.is_string()) {
      params[name] = value.get<std::string>();
    } else {
      throw std::invalid_argument("parameter '" + name + "' must be a scalar");
    }
  }
  return params;
}

}  // namespace perfzero::detail
