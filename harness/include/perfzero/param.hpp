#pragma once
// Typed parameters of a benchmark method, as declared by its author and given in YAML suites.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace perfzero {

enum class ParamType { integer, number, boolean, string };

using ParamValue = std::variant<std::int64_t, double, bool, std::string>;
using ParamMap = std::map<std::string, ParamValue, std::less<>>;

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::integer;
  ParamValue default_value;
  std::string description;
};

std::string_view to_string(ParamType type);
ParamType type_of(const ParamValue& value);
std::string format_param_value(const ParamValue& value);

}  // namespace perfzero
