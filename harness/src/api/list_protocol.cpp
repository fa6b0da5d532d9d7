#include "api/list_protocol.hpp"

#include <string>
#include <variant>

namespace perfzero::detail {

nlohmann::json method_list_json(const Registry& registry, std::string_view worker) {
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& m : registry.methods()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : m.params) {
      nlohmann::json default_value;
      std::visit([&](const auto& v) { default_value = v; }, p.default_value);
      params.push_back({{"name", p.name},
                        {"type", std::string(to_string(p.type))},
                        {"default", default_value},
                        {"description", p.description}});
    }
    methods.push_back({{"name", m.full_name()},
                       {"family", m.family},
                       {"class", m.class_name},
                       {"method", m.method},
                       {"description", m.description},
                       {"params", params},
                       {"needs", m.needs}});
  }
  return {{"worker", std::string(worker)}, {"list_protocol_version", kListProtocolVersion}, {"methods", methods}};
}

}  // namespace perfzero::detail
