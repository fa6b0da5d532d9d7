#pragma once
// Combines the methods named on the command line and in suites into the list a run executes.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/run_plan.hpp"
#include "config/suite.hpp"
#include "method_catalog/catalog.hpp"

namespace perfzero::config {

struct PlanInputs {
  std::vector<std::string> method_specs;  // from --benchmark_methods
  RunSettings flags;                      // values given explicitly on the command line
  std::vector<Suite> suites;
  std::string path_env;                              // PATH used to find external commands
  std::string bin_dir;                               // replaces {bindir} in commands: perfzero's helper programs
  const method_catalog::Catalog* catalog = nullptr;  // the methods and their workers; must be set
  std::optional<std::uint64_t> max_cases;            // --max_cases; else each suite's, else kDefaultMaxCases
  // Python methods (docs/python.md): the flags' layer; the interpreter when nothing names one
  // ($PERFZERO_PYTHON, else python3); the perfzero package's directory, first on the child's
  // PYTHONPATH; the inherited PYTHONPATH, after the method's own; where the children start.
  PythonSettings python_flags;
  std::string default_python = "python3";
  std::string python_package_dir;
  std::string inherited_pythonpath;
  std::filesystem::path python_working_dir;
  // Which methods a Python name selects; unset: a name no worker runs is an unknown method.
  PythonLister list_python;
};

// What every plan on this installation starts from: the catalog, $PATH for external commands and
// perfzero's own helper directory (config/plan_inputs.cpp).
PlanInputs installed_plan_inputs(const method_catalog::Catalog& catalog);

// Throws ConfigError when an external command cannot be found, two entries collide or a method
// has no worker.
std::vector<PlannedCase> build_plan(const PlanInputs& inputs);

// Every suite's comparisons; each must name methods (by report name) that the plan runs.
std::vector<Comparison> collect_comparisons(const std::vector<Suite>& suites, const std::vector<PlannedCase>& plan);

// "method" or "method[a=1,b=x]".
std::string case_name(const std::string& method, const ParamMap& params);

}  // namespace perfzero::config
