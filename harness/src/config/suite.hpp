#pragma once
// A YAML suite file, checked and resolved against the registry (format: docs/suites.md).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/python_method.hpp"
#include "config/run_plan.hpp"
#include "perfzero/registry.hpp"

namespace perfzero::config {

// One parameter and the values it takes; more than one value makes a sweep.
struct ParamAxis {
  std::string name;
  std::vector<ParamValue> values;
};

struct SuiteEntry {
  std::string origin;  // file:line:column of the entry
  std::string key;     // methods[N]
  bool external = false;
  // Built-in: the methods the name or filter selected, each with its parameters typed for it.
  std::vector<const MethodInfo*> methods;
  std::vector<std::vector<ParamAxis>> axes;  // parallel to `methods`
  // External command.
  std::string name;
  std::string description;
  std::vector<std::string> argv;
  std::filesystem::path working_dir;
  std::vector<ParamAxis> external_axes;
  OutputFormat output = OutputFormat::perfzero;
  std::map<std::string, Direction> metric_directions;  // commands: which way is better, per metric
  std::string main_metric;  // main_metric: the metric `perfzero report` ranks it by; empty: its first rate
  // Python method (python_method: MODULE.CLASS.METHOD, .filter:REGEX or :METHOD): what it selects is
  // asked of the interpreter when the plan is built; `name`, when given, renames its one case.
  std::string python_spec;
  PythonSettings python;
  RunSettings settings;

  bool is_python() const { return !python_spec.empty(); }
};

struct Suite {
  std::filesystem::path path;
  std::string name;
  std::string description;
  RunSettings defaults;
  PythonSettings python_defaults;  // the Python keys of `defaults`
  std::vector<SuiteEntry> entries;
  std::vector<Comparison> comparisons;
  bool interleave = false;                 // run trials round-robin across methods (like --interleave)
  std::optional<std::uint64_t> max_cases;  // the most cases its sweeps may expand to
  // CPUs' worth of others' work that flag a trial host_busy (like --host_busy_threshold, which wins)
  std::optional<double> host_busy_threshold;
};

// The most a host_busy_threshold (key or flag) may name.
inline constexpr double kMaxHostBusyThresholdCpus = 4096;

// The suites' host_busy_threshold: none when no suite names one; ConfigError when two disagree.
std::optional<double> host_busy_threshold_of(const std::vector<Suite>& suites);
// The threshold a run uses: the flag's, which wins (and settles suites that disagree), else the suites'.
std::optional<double> host_busy_threshold_for(std::optional<double> flag, const std::vector<Suite>& suites);

// Throws ConfigError (file:line:column, key, what was expected) for anything wrong; a suite with
// any error is never partly used.
Suite load_suite(const std::filesystem::path& path, const Registry& registry = Registry::instance());
// The registry asked for only when the suite names a built-in method: a suite of external commands
// then starts no worker (the catalog behind it is learned from the workers on first use).
using RegistrySource = std::function<const Registry&()>;
Suite load_suite(const std::filesystem::path& path, const RegistrySource& registry);

}  // namespace perfzero::config
