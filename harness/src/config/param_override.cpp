#include "config/param_override.hpp"

#include <fmt/format.h>

#include "common/errors.hpp"
#include "config/param_text.hpp"
#include "config/plan_builder.hpp"

namespace perfzero::config {

namespace {

void refuse_sweep(const ParamAxis& axis, const std::string& origin) {
  if (axis.values.size() > 1) {
    throw ConfigError(
        fmt::format("{}: params.{}: the suite sweeps it over {} values; --param sets it to one value "
                    "per side, so give a suite without that sweep",
                    origin, axis.name, axis.values.size()));
  }
}

}  // namespace

int override_suite_parameter(std::vector<Suite>& suites, const std::string& name, const std::string& value) {
  int taken = 0;
  for (auto& suite : suites) {
    for (auto& entry : suite.entries) {
      for (auto& axes : entry.axes) {
        for (const auto& axis : axes) {
          if (axis.name == name) refuse_sweep(axis, entry.origin);
        }
      }
      if (!entry.external) continue;
      for (auto& axis : entry.external_axes) {
        if (axis.name != name) continue;
        refuse_sweep(axis, entry.origin);
        axis.values = {untyped_param_from_text(value)};
        ++taken;
      }
    }
  }
  return taken;
}

int override_plan_parameter(std::vector<PlannedCase>& plan, const Registry& registry, const std::string& name,
                            const std::string& value) {
  int taken = 0;
  for (auto& c : plan) {
    if (c.external) continue;
    const MethodInfo* method = registry.find(c.method);
    if (method == nullptr) continue;
    for (const auto& spec : method->params) {
      if (spec.name != name) continue;
      const auto typed = param_from_text(value, spec.type);
      if (!typed) {
        throw ConfigError(fmt::format("--param {}: {} takes {} {} value, got '{}'", name, c.method,
                                      spec.type == ParamType::integer ? "an" : "a", to_string(spec.type), value));
      }
      c.params[name] = *typed;
      c.name = case_name(c.method, c.params);
      ++taken;
    }
  }
  return taken;
}

}  // namespace perfzero::config
