#include "method_catalog/list_json_parser.hpp"

#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api/list_protocol.hpp"

namespace perfzero::method_catalog {

namespace {

using nlohmann::json;

const json& field(const json& object, const char* key, json::value_t type, const std::string& where) {
  const auto it = object.find(key);
  const bool ok =
      it != object.end() &&
      (it->type() == type || (type == json::value_t::number_integer && it->type() == json::value_t::number_unsigned));
  if (!ok) {
    throw std::runtime_error(fmt::format("{}{}: missing or not a {}", where, key, json(type).type_name()));
  }
  return *it;
}

std::string string_field(const json& object, const char* key, const std::string& where) {
  return field(object, key, json::value_t::string, where).get<std::string>();
}

ParamType param_type(const std::string& name, const std::string& where) {
  for (auto type : {ParamType::integer, ParamType::number, ParamType::boolean, ParamType::string}) {
    if (to_string(type) == name) return type;
  }
  throw std::runtime_error(fmt::format("{}type: expected integer, number, boolean or string, got '{}'", where, name));
}

ParamValue default_of(const json& value, ParamType type, const std::string& where) {
  if (type == ParamType::integer && value.is_number_integer()) return value.get<std::int64_t>();
  if (type == ParamType::number && value.is_number()) return value.get<double>();
  if (type == ParamType::boolean && value.is_boolean()) return value.get<bool>();
  if (type == ParamType::string && value.is_string()) return value.get<std::string>();
  throw std::runtime_error(fmt::format("{}default: expected a {} value, got {}", where, to_string(type),
                                       value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
}

ParamSpec read_param(const json& p, const std::string& where) {
  if (!p.is_object()) throw std::runtime_error(where + ": expected an object");
  ParamSpec spec;
  spec.name = string_field(p, "name", where + ".");
  spec.type = param_type(string_field(p, "type", where + "."), where + ".");
  if (!p.contains("default")) throw std::runtime_error(where + ".default: missing");
  spec.default_value = default_of(p.at("default"), spec.type, where + ".");
  spec.description = p.value("description", "");
  return spec;
}

MethodInfo read_method(const json& m, const std::string& where) {
  if (!m.is_object()) throw std::runtime_error(where + ": expected an object");
  const std::string prefix = where + ".";
  MethodInfo info;
  info.family = string_field(m, "family", prefix);
  info.class_name = string_field(m, "class", prefix);
  info.method = string_field(m, "method", prefix);
  info.description = m.value("description", "");
  const std::string name = string_field(m, "name", prefix);
  if (name != info.full_name()) {
    throw std::runtime_error(
        fmt::format("{}name: '{}' is not family.class.method ('{}')", prefix, name, info.full_name()));
  }
  const json& params = field(m, "params", json::value_t::array, prefix);
  for (std::size_t i = 0; i < params.size(); ++i) {
    info.params.push_back(read_param(params[i], fmt::format("{}params[{}]", prefix, i)));
  }
  // Optional: workers built before "needs" existed list none.
  if (const auto needs = m.find("needs"); needs != m.end()) {
    if (!needs->is_array()) throw std::runtime_error(prefix + "needs: expected an array of strings");
    for (const json& need : *needs) {
      if (!need.is_string()) throw std::runtime_error(prefix + "needs: expected an array of strings");
      info.needs.push_back(need.get<std::string>());
    }
  }
  return info;
}

}  // namespace

WorkerMethods parse_method_list(std::string_view text) {
  const json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw std::runtime_error("not a JSON object");
  const auto version = field(doc, "list_protocol_version", json::value_t::number_integer, "").get<int>();
  if (version != detail::kListProtocolVersion) {
    throw std::runtime_error(
        fmt::format("list_protocol_version {} is not the supported {}", version, detail::kListProtocolVersion));
  }
  WorkerMethods out;
  out.worker = string_field(doc, "worker", "");
  const json& methods = field(doc, "methods", json::value_t::array, "");
  std::set<std::string> names;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const std::string where = fmt::format("methods[{}]", i);
    out.methods.push_back(read_method(methods[i], where));
    if (!names.insert(out.methods.back().full_name()).second) {
      throw std::runtime_error(fmt::format("{}.name: '{}' is listed twice", where, out.methods.back().full_name()));
    }
  }
  return out;
}

}  // namespace perfzero::method_catalog
