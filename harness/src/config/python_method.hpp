#pragma once
// A Python benchmark method (docs/python.md): a PerfZero class's `benchmark*` method, run by the
// perfzero Python package's runner in a child process like every other method. What the planner
// needs of it; asking an interpreter which methods a name selects is python_methods/'s job, handed
// in as a PythonLister so that planning starts no process of its own.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace perfzero::config {

// How Python methods are run, one layer of it (flag > entry > suite defaults > environment):
// unset fields fall through.
struct PythonSettings {
  std::optional<std::string> python;                    // a path or a name on PATH (${VAR:-default} expanded)
  std::optional<std::vector<std::string>> python_path;  // directories, absolute
  std::optional<std::string> class_type;                // "perfzero" or "tf_benchmark"
  std::optional<std::string> constructor_args;          // a JSON object's text

  bool empty() const { return !python && !python_path && !class_type && !constructor_args; }
};

// PerfZero's --benchmark_class_type values.
inline constexpr const char* kPerfZeroClassType = "perfzero";
inline constexpr const char* kTfBenchmarkClassType = "tf_benchmark";

// One Python method of the plan, every setting resolved.
struct PythonMethod {
  std::string spec;                      // MODULE.CLASS.METHOD
  std::string interpreter;               // an absolute path (a name is looked up on the case's PATH)
  std::vector<std::string> python_path;  // prepended to the inherited PYTHONPATH, after perfzero's package
  std::string class_type = kPerfZeroClassType;
  std::string constructor_args = "{}";
  // The case's env (flags, suite, entry): the interpreter is asked with the environment its trials
  // will have, so what imports when listing is what imports when running.
  std::map<std::string, std::string> env;
  bool operator==(const PythonMethod&) const = default;
};

// The variable that hands a class its constructor arguments (a JSON object): an environment is
// readable by its owner only, a command line by every user of the machine.
inline constexpr const char* kConstructorArgsVariable = "PERFZERO_CONSTRUCTOR_ARGS";

// PYTHONPATH as a Python method's child gets it: perfzero's package directory first, then the
// method's own directories, then the case's env PYTHONPATH, else `inherited` (the harness's).
std::string pythonpath_for(const std::string& package_dir, const PythonMethod& how, const std::string& inherited);

// One question to an interpreter: which methods does `spec` select (origin names where it was asked).
struct PythonQuery {
  std::string spec;
  std::string origin;
};

// A method an interpreter listed: its full name and its docstring's first line.
struct PythonListed {
  std::string name;
  std::string description;
};

// Asks `how.interpreter`, with `how.python_path`, for the methods each query selects (full
// MODULE.CLASS.METHOD names, in the class's order), keyed by the query's spec. One call per interpreter and path, so a
// framework is imported once however many entries name it. Throws ConfigError naming the module and
// the Python exception for a class that does not import.
using PythonLister = std::function<std::map<std::string, std::vector<PythonListed>>(
    const PythonMethod& how, const std::vector<PythonQuery>& queries)>;

// Layers low to high: the last set value of each field wins.
PythonSettings merged(const std::vector<const PythonSettings*>& layers_low_to_high);

// Throws ConfigError naming `where` for a python_path entry PYTHONPATH cannot hold (one with ':').
void check_python_path_entry(const std::string& dir, const std::string& where);

}  // namespace perfzero::config
