#include "python_methods/python_inputs.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "python_methods/method_listing.hpp"
#include "python_methods/package_dir.hpp"

namespace perfzero::python_methods {

std::string default_python() {
  const char* env = std::getenv("PERFZERO_PYTHON");
  return env != nullptr && *env != '\0' ? env : "python3";
}

void add_python_inputs(config::PlanInputs& inputs, const config::PythonSettings& flags) {
  inputs.python_flags = flags;
  inputs.default_python = default_python();
  inputs.python_package_dir = package_dir();
  const char* pythonpath = std::getenv("PYTHONPATH");
  inputs.inherited_pythonpath = pythonpath != nullptr ? pythonpath : "";
  std::error_code ec;
  inputs.python_working_dir = std::filesystem::current_path(ec);
  inputs.list_python = make_lister({inputs.python_package_dir, inputs.inherited_pythonpath});
}

}  // namespace perfzero::python_methods
