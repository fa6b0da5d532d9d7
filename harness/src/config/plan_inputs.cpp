#include <cstdlib>

#include "common/install_layout.hpp"
#include "config/plan_builder.hpp"

namespace perfzero::config {

PlanInputs installed_plan_inputs(const method_catalog::Catalog& catalog) {
  PlanInputs inputs;
  inputs.catalog = &catalog;
  const char* path = std::getenv("PATH");
  inputs.path_env = path != nullptr ? path : "/usr/bin:/bin";
  inputs.bin_dir = files::helper_dir().string();
  return inputs;
}

}  // namespace perfzero::config
