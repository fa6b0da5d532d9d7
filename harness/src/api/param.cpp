#include "perfzero/param.hpp"

#include <fmt/format.h>

namespace perfzero {

std::string_view to_string(ParamType type) {
  switch (type) {
    case ParamType::integer:
      return "integer";
    case ParamType::number:
      return "number";
    case ParamType::boolean:
      return "boolean";
    case ParamType::string:
      return "string";
  }
  return "unknown";
}

ParamType type_of(const ParamValue& value) {
  switch (value.index()) {
    case 0:
      return ParamType::integer;
    case 1:
      return ParamType::number;
    case 2:
      return ParamType::boolean;
    default:
      return ParamType::string;
  }
}

std::string format_param_value(const ParamValue& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) return fmt::format("{}", *d);
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  return std::get<std::string>(value);
}

}  // namespace perfzero
