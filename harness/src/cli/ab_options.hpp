#pragma once
// The flags of `perfzero ab` (docs/compare.md, "perfzero ab").
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/compare_options.hpp"

namespace perfzero::cli {

// What the two sides are: exactly one kind is given.
enum class AbSides { commands, builds, images, parameter };

struct AbOptions {
  AbSides sides = AbSides::commands;
  std::string baseline;    // the command, build directory or image of the baseline
  std::string candidate;   // ... of the candidate
  std::string param_name;  // --param NAME=BASE,CAND
  std::string param_baseline;
  std::string param_candidate;
  std::string command_output = "none";  // how commands report: none, perfzero, google_benchmark
  std::string image_bin_dir = "/opt/perfzero/libexec/perfzero";  // where an image keeps its workers
  std::vector<std::string> benchmark_methods;                    // builds, images, parameter: what runs
  std::vector<std::string> configs;
  double min_change = 0.05;
  double alpha = 0.05;
  std::string metrics;  // a regular expression: the gated metrics; empty: compare/gated_metrics.hpp's
  std::optional<double> host_busy_threshold;  // --host_busy_threshold, else the suites' key
  GatePassOn pass_on;                         // --pass_on
  int max_pairs = 100;
  std::chrono::milliseconds max_time{std::chrono::minutes(10)};
  int warmup_trials = 1;
  std::optional<std::chrono::milliseconds> timeout;
  std::string output_dir;
  std::string execution_label;
  std::string format = "text";
  std::string junit_file;  // --junit: one test case per (method, metric); a slowdown is a failure
  std::string colour = "auto";
  std::string markdown_file;
  std::string json_file;
  std::vector<std::pair<std::string, std::string>> given;  // flags as given, for the runs' records
};

// Parses `perfzero ab` flags (argv[0] is "ab"). Returns the help text for --help; throws UsageError
// naming the flag for anything else it cannot take.
std::optional<std::string> parse_ab_flags(int argc, const char* const* argv, AbOptions& out);

}  // namespace perfzero::cli
