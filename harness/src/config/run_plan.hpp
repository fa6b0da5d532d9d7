#pragma once
// The fully expanded list of what a run will execute: one PlannedCase per (method, parameter set).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/auto_trials.hpp"
#include "config/launch.hpp"
#include "config/python_method.hpp"
#include "perfzero/metric.hpp"
#include "perfzero/param.hpp"

namespace perfzero::config {

// How an external command reports: the perfzero result protocol (docs/protocol.md); a Google
// Benchmark binary's, fio's or iperf3's JSON report, which the harness asks for and converts; or
// nothing at all: the harness's own measurements of the process tree (wall time, CPU, peak memory)
// become the metrics. Names: config/output_format.hpp.
enum class OutputFormat { perfzero, google_benchmark, fio, iperf3, none };

struct ExternalCommand {
  std::vector<std::string> argv;  // after {param} and {bindir} substitution
  std::filesystem::path working_dir;
  OutputFormat output = OutputFormat::perfzero;
  // What the suite declares overrides what the program said (it may say nothing: output none or
  // google_benchmark, or a script written before directions existed).
  std::map<std::string, Direction> metric_directions;
};

inline constexpr std::int64_t kDefaultMaxResultBytes = 64LL << 20;  // 64 MiB
inline constexpr std::int64_t kDefaultMaxLogBytes = 64LL << 20;
// Limits a suite or flag may set them to: an int in bytes, at least 1 KiB.
inline constexpr int kMinByteLimit = 1024;

struct PlannedCase {
  std::string name;    // report name: the method, plus [param=value,...] for a sweep point
  std::string dir;     // its directory under the run directory, unique in the run (case_dirs.hpp)
  std::string method;  // family.Class.method for built-ins; the suite's name for commands
  std::string description;
  bool external = false;
  ParamMap params;               // the given parameters (built-ins get defaults for the rest in the worker)
  std::filesystem::path worker;  // built-ins: the perfzero-worker-* executable that runs the method
  ExternalCommand command;
  // A Python method: `command` runs the perfzero package's runner with it (docs/python.md).
  std::optional<PythonMethod> python;
  int trials = 1;                         // with trials: auto, the most it may get (auto_trials->max_trials)
  std::optional<AutoTrials> auto_trials;  // trials: auto: the noise decides how many (common/auto_trials.hpp)
  int warmup_trials = 0;
  std::chrono::milliseconds timeout{0};  // 0: none
  std::chrono::milliseconds monitor_interval{100};
  std::int64_t max_result_bytes = kDefaultMaxResultBytes;  // the largest result file read (docs/protocol.md)
  std::int64_t max_log_bytes = kDefaultMaxLogBytes;        // perfzero.log keeps its head and tail past this
  std::map<std::string, std::string> env;                  // added to the harness's environment
  LaunchSpec launch;                                       // how its processes start (config/launch.hpp)
  std::string origin;       // where it was asked for: "--benchmark_methods" or file:line:column
  std::string main_metric;  // the suite's main_metric: what `perfzero report` ranks it by; empty: its first rate
};

// Settings a suite or the command line may give; unset fields fall through to the next level
// (flag > method entry > suite defaults > built-in default).
struct RunSettings {
  std::optional<int> trials;
  bool trials_auto = false;  // trials: auto (a number at a higher level turns it off again)
  std::optional<int> min_trials;
  std::optional<int> max_trials;
  std::optional<double> min_seconds;
  std::optional<double> max_seconds;
  std::optional<double> max_noise;  // a fraction
  std::optional<int> warmup_trials;
  std::optional<std::chrono::milliseconds> timeout;
  std::optional<std::chrono::milliseconds> monitor_interval;
  std::optional<std::int64_t> max_result_bytes;
  std::optional<std::int64_t> max_log_bytes;
  std::map<std::string, std::string> env;
  LaunchSettings launch;
};

// "ours against theirs" in one run: the summary shows the ratio of the two metrics' medians.
struct Comparison {
  std::string name;
  std::string ours_case;
  std::string ours_metric;
  std::string theirs_case;
  std::string theirs_metric;
  std::optional<double> goal;  // the ratio ours/theirs hoped for, shown as met or not
  std::string origin;
};

inline constexpr std::chrono::milliseconds kDefaultTimeout{std::chrono::hours(1)};
inline constexpr std::chrono::milliseconds kDefaultMonitorInterval{100};
// How many cases a run may plan unless --max_cases or a suite's max_cases says otherwise: sweeps
// are counted before they are expanded, so a typo cannot fill memory.
inline constexpr std::uint64_t kDefaultMaxCases = 100'000;
// The most a run's max_cases may say: a planned case takes about 2.4 KB (measured with --dry_run: 1e6
// cases took 2.4 GB, 1e8 ran out of memory), so a plan fits in 1 GiB.
inline constexpr int kMaxCasesCeiling = 400'000;
inline constexpr const char* kMaxCasesWhy = "a plan takes about 2.4 KB per case, so 400000 cases fit in 1 GiB";

}  // namespace perfzero::config
