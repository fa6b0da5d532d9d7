#include "commands/suite_plan_inputs.hpp"

#include <utility>

#include "python_methods/python_inputs.hpp"

namespace perfzero::commands {

config::PlanInputs suite_plan_inputs(const std::string& suite_file, method_catalog::LazyCatalog& catalog) {
  const config::RegistrySource registry = [&catalog]() -> const Registry& { return catalog.get().registry(); };
  auto suite = config::load_suite(suite_file, registry);
  config::PlanInputs inputs = config::installed_plan_inputs(catalog.learned_or_empty());
  python_methods::add_python_inputs(inputs, {});
  inputs.suites.push_back(std::move(suite));
  return inputs;
}

}  // namespace perfzero::commands
