#pragma once
// One parameter set to one value across a plan: how `perfzero ab --param NAME=A,B` makes its two
// sides from the same methods and suites.
#include <string>
#include <vector>

#include "config/run_plan.hpp"
#include "config/suite.hpp"
#include "perfzero/registry.hpp"

namespace perfzero::config {

// Before planning: every external command entry of `suites` with a parameter `name` takes `value`
// instead of what the suite gives. Returns how many entries took it. Throws ConfigError when an entry
// sweeps `name` over several values (the two sides would then be several cases each).
int override_suite_parameter(std::vector<Suite>& suites, const std::string& name, const std::string& value);

// After planning: every built-in case whose method declares `name` takes `value`, typed as the method
// declares it, and its name says so. Returns how many cases took it. Throws ConfigError for a value
// that is not of the parameter's type, naming the method.
int override_plan_parameter(std::vector<PlannedCase>& plan, const Registry& registry, const std::string& name,
                            const std::string& value);

}  // namespace perfzero::config
