#pragma once
// The Python part of a plan's inputs (config::PlanInputs): the flags' layer, the default
// interpreter, the perfzero package's directory and the lister that asks interpreters.
#include "config/plan_builder.hpp"

namespace perfzero::python_methods {

// $PERFZERO_PYTHON, else python3 (found on PATH when a method runs).
std::string default_python();

void add_python_inputs(config::PlanInputs& inputs, const config::PythonSettings& flags);

}  // namespace perfzero::python_methods
