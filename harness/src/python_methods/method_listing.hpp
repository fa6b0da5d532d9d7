#pragma once
// Asks an interpreter, through the perfzero package's runner (`python -m perfzero.runner list`),
// which methods a name selects or which classes a directory holds: the classes are imported in a
// child, so a module that crashes, hangs or prints cannot harm the harness, and one that does not
// import is an error before anything runs (docs/python.md).
#include <string>
#include <vector>

#include "config/python_method.hpp"

namespace perfzero::python_methods {

// How long an interpreter may take to import the classes named (TensorFlow alone takes seconds).
inline constexpr int kListSeconds = 180;

struct ListingEnvironment {
  std::string package_dir;           // the perfzero package's directory (package_dir.hpp)
  std::string inherited_pythonpath;  // the harness's PYTHONPATH, after the method's own
};

// A config::PythonLister over ListingEnvironment: throws ConfigError naming where each name was
// asked for, the module, and the Python exception.
config::PythonLister make_lister(const ListingEnvironment& where);

struct Discovery {
  std::string python_version;
  std::vector<config::PythonListed> methods;
  std::vector<std::string> problems;  // modules that did not import: "module: exception"
};

// Every class with benchmark* methods under `dirs` (perfzero list --python_path). Throws ConfigError
// when the interpreter cannot be run or answers nothing readable.
Discovery discover(const config::PythonMethod& how, const ListingEnvironment& where);

}  // namespace perfzero::python_methods
