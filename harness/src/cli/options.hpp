#pragma once
// Everything the command line can say (docs/cli.md documents each flag).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cli/ab_options.hpp"
#include "cli/compare_options.hpp"
#include "cli/export_options.hpp"
#include "cli/history_options.hpp"
#include "cli/python_flags.hpp"
#include "cli/report_options.hpp"
#include "config/run_plan.hpp"
#include "samplers/counter_readings.hpp"

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
  // What the measured code was made of (docs/history.md): else CI's variables, else the git checkout.
  std::string commit;
  std::string branch;
  std::string build_label;
  bool detect_source = true;    // --detect_source=false: only the three flags above
  bool fail_on_change = false;  // --fail_on_change: with --history, a slower change point this run makes is exit 1
  // Ours.
  std::vector<std::string> configs;
  std::string output_dir;
  std::string history_db;  // --history: store the completed run in this results database (docs/history.md)
  bool list = false;
  bool dry_run = false;
  bool resume = false;
  bool slurm_allocate = false;  // one Slurm allocation for the run's slurm-launched cases (--slurm_allocate)
  bool force_resume = false;    // resume although the plan differs from the run's (--force_resume)
  bool interleave = false;
  std::string instance_type;
  std::optional<std::uint64_t> max_cases;  // --max_cases: the most cases the plan may hold
  std::vector<std::string> reports;        // --report: the outputs to write; empty means every built-in one
  std::string mlflow_tracking_uri;  // --mlflow_tracking_uri: --report=+mlflow's server (else MLFLOW_TRACKING_URI)
  std::string dmi_root = "/sys/class/dmi/id";
  std::uint32_t counters = samplers::kAllCounters;  // --counters: what perfzero-launch counts per trial
  double cpu_throttle_threshold = 0.90;             // --cpu_throttle_threshold / 100: of the CPU's maximum clock
  double cpu_throttle_share = 0.10;                 // --cpu_throttle_share / 100: of a trial's clock samples
  std::optional<double> host_busy_threshold;        // --host_busy_threshold, else the suites' key
  std::string lock_gpu_clocks;   // --lock_gpu_clocks: "base" or "max" (nvml::clock_lock_from); "" leaves them
  bool doctor = false;           // --doctor: check the machine first (quick) and record the verdict in run.json
  PythonFlags python;            // PerfZero's flags for Python classes (docs/python.md)
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
  bool version = false;  // --version: the app prints it with the build's options and the workers
};

// Parses the flags of `perfzero run` (argv[0] is the program). Throws UsageError with one line
// naming the flag and what it accepts. `top_level`: invoked as plain `perfzero`, so --help also
// lists the subcommands.
ParseResult parse_command_line(int argc, const char* const* argv, bool top_level = false);

struct ListOptions {
  bool json = false;   // --format=json: the catalog with parameters and workers
  bool names = false;  // --format=names: one method name a line (for shell completion)
  PythonFlags python;  // --python_path: list the Python classes there too (--python: with which interpreter)
};

struct ValidateOptions {
  std::vector<std::string> suites;
};

// perfzero --version: the version, the build's options and the workers found.
struct VersionOptions {};

// perfzero completion bash|zsh|fish: a completion script for that shell.
struct CompletionOptions {
  std::string shell;
};

// perfzero manpage: perfzero(1) as roff, for the build to install.
struct ManPageOptions {};

struct DoctorOptions {
  bool quick = false;  // --quick: about 5 s instead of about 20
  bool json = false;   // --format=json
};

// Git-style subcommands, one alternative each: `run` (Options) is the default, so every PerfZero
// command line keeps working. The names, summaries and parsers are one table
// (cli/parse_subcommands.cpp); the commands themselves are commands/perfzero_main.cpp's overloads, which
// std::visit makes complete.
struct Invocation {
  std::variant<Options, ListOptions, ValidateOptions, DoctorOptions, ReportOptions, CompareOptions, AbOptions,
               HistoryOptions, ExportOptions, VersionOptions, CompletionOptions, ManPageOptions>
      command;
};

struct InvocationResult {
  std::optional<Invocation> invocation;
  std::string message;  // --help or --version
  int exit_code = 0;
};

// The whole command line: picks the subcommand from argv[1], then parses its flags. Throws
// UsageError for an unknown subcommand (with a did-you-mean) or a bad flag.
InvocationResult parse_invocation(int argc, const char* const* argv);

// "Commands:" and one line per subcommand, for --help.
std::string commands_help();

}  // namespace perfzero::cli
