#pragma once
// One suite's plan inputs as `validate`, `report --estimate` and a dry run see them: the suite is
// loaded first, so the workers it names are asked what they run, and then the installed inputs are
// made from what that taught the catalog (made before it, they knew no built-in method).
#include <string>

#include "config/plan_builder.hpp"
#include "method_catalog/catalog.hpp"

namespace perfzero::commands {

config::PlanInputs suite_plan_inputs(const std::string& suite_file, method_catalog::LazyCatalog& catalog);

}  // namespace perfzero::commands
