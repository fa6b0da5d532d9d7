#pragma once
// Everything the command line can say (docs/cli.md documents each flag).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/run_plan.hpp"

namespace perfzero::cli {

struct Options {
  // PerfZero's flags.
  std::vector<std::string> benchmark_methods;
  std::string execution_label;
  std::string platform_name;
  std::string system_name;
  std::string execution_id;
  std::string root_data_dir;
  std::string ml_framework_build_label;
  bool debug = false;
  // Ours.
  std::vector<std::string> configs;
  std::string output_dir;
  bool list = false;
  bool dry_run = false;
  bool resume = false;
  bool interleave = false;
  std::string instance_type;
  std::vector<std::string> reports;  // --report: the outputs to write; empty means every built-in one
  std::string dmi_root = "/sys/class/dmi/id";
  config::RunSettings settings;  // --benchmark_num_trials, --warmup_trials, --timeout, --monitor_interval_ms
  // Flags as given, name -> value, for the report's benchmark_info.flags.
  std::vector<std::pair<std::string, std::string>> given;
};

// What the command line asks for: a run (with options), or text to print and an exit code
// (--help, --version).
struct ParseResult {
  std::optional<Options> options;
  std::string message;
  int exit_code = 0;
};

// Throws UsageError with one line naming the flag and what it accepts.
ParseResult parse_command_line(int argc, const char* const* argv);

}  // namespace perfzero::cli
