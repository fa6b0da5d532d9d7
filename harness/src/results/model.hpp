#pragma once
// The results model: one run in memory, filled by the runner's events (results/recorder.hpp) or
// loaded back from disk (results/reader.hpp). Every output is computed from it; nothing here
// knows how a child was launched or how a file is formatted.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/auto_trials.hpp"
#include "common/outcome.hpp"
#include "perfzero/metric.hpp"

namespace perfzero::results {

// Minor versions only add keys; a reader refuses another major version.
inline constexpr const char* kSchemaVersion = "1.11.0";
inline constexpr int kSchemaMajor = 1;

struct MetricValue {
  std::string name;
  double value = 0;
  std::string unit;
  std::optional<double> min_value;
  std::optional<double> max_value;
  Direction direction = Direction::unspecified;  // from the method's metadata, never from the name
};

// PerfZero's process_info, plus how it was obtained (perfzero_cpp.process in the report).
struct ProcessInfo {
  std::uint64_t max_rss = 0;  // bytes
  std::uint64_t max_vms = 0;
  double max_cpu_percent = 0;
  nlohmann::json detail = nlohmann::json::object();
};

struct Trial {
  int number = 1;  // 1-based
  bool warmup = false;
  Outcome outcome = Outcome::invalid;
  std::string detail;  // empty when succeeded
  bool has_exception = false;
  std::optional<int> exit_code;
  std::string signal;  // e.g. SIGSEGV when ended by one
  double wall_time = 0;
  std::optional<double> self_wall_time;  // what the child measured itself, when it said
  double harness_seconds = 0;            // the trial's whole time in the harness
  double started_offset = 0;             // seconds from the run's start
  std::vector<MetricValue> metrics;
  nlohmann::json extras = nlohmann::json::object();
  nlohmann::json ml_framework_info;                      // null when the child gave none
  nlohmann::json repetitions = nlohmann::json::array();  // per-repetition times (perfzero::measure)
  ProcessInfo process;
  nlohmann::json samplers = nlohmann::json::object();  // sampler name -> its named summaries
  std::vector<std::string> flags;                      // conditions worth a look, e.g. host_busy
  // A multi-rank method's ranks (launch: mpirun): world_size, engine, each rank's end and usage, the
  // hosts they ran on, the ranks that never reported and those whose result was refused. null: local.
  nlohmann::json ranks;
  std::string dir;     // trial directory, relative to the run's
  std::string report;  // perfzero_summary.json relative to the run's directory; empty when none
  bool resumed = false;
};

struct Case {
  std::string name;    // the method, plus [param=value,...] for a sweep point
  std::string method;  // family.Class.method, or the suite's name for a command
  std::string description;
  std::string origin;  // "--benchmark_methods" or file:line:column
  bool external = false;
  std::string output = "perfzero";  // how a command reports: perfzero, google_benchmark, none
  nlohmann::json params = nlohmann::json::object();
  int trials_planned = 0;                 // with trials: auto, the most it may get
  std::optional<AutoTrials> auto_trials;  // trials: auto: what decides when it has enough
  int warmups_planned = 0;
  double timeout_seconds = 0;
  int monitor_interval_ms = 0;
  std::vector<std::string> command;  // external commands only
  std::string working_dir;
  // A Python method (docs/python.md): {spec, interpreter, python_path, class_type}; null otherwise.
  nlohmann::json python;
  // launch: {engine, nodes, tasks_per_node, hosts, hostfile, extra_args} for a multi-rank method
  // (schema 1.5.0); null for a local one.
  nlohmann::json launch;
  // The suite's main_metric (schema 1.11.0): what `perfzero report` ranks it by; empty: its first rate.
  std::string main_metric;
  std::string dir;  // the case's directory, relative to the run's
  std::vector<Trial> trials;
  std::vector<Trial> warmups;
};

// "ours against theirs" in one run (a suite's comparisons): the ratio of two metrics' medians.
struct ComparisonSpec {
  std::string name;
  std::string ours_case;
  std::string ours_metric;
  std::string theirs_case;
  std::string theirs_metric;
  std::optional<double> goal;
};

// What the measured code was made of (docs/history.md): it describes a run, and is not part of what
// identifies a series, so a new commit continues its configuration's series.
struct SourceInfo {
  std::string commit;
  std::string branch;
  std::string build_label;
  nlohmann::json from = nlohmann::json::object();  // per field: "flag", the CI variable, or the git checkout
  bool empty() const { return commit.empty() && branch.empty() && build_label.empty(); }
};

struct RunInfo {
  std::string schema_version = kSchemaVersion;
  std::string execution_id;
  double execution_timestamp = 0;  // epoch seconds when the run started
  std::string execution_label;
  std::string platform_name;
  std::string system_name;
  std::string instance_type;  // --instance_type, else what DMI says
  std::string ml_framework_build_label;
  std::string output_dir;
  std::vector<std::string> suite_files;
  std::string harness_version;
  nlohmann::json harness_info = nlohmann::json::object();  // url, branch, hash
  // The repositories --git_repos checked out, {dir: {url, branch, hash}} (PerfZero's site_package_info)
  nlohmann::json site_packages = nlohmann::json::object();
  nlohmann::json env_vars = nlohmann::json::object();     // redacted
  nlohmann::json flags = nlohmann::json::object();        // redacted
  SourceInfo source;                                      // the commit, branch, build label
  nlohmann::json setup_info = nlohmann::json::object();   // the container image, when run in ours
  nlohmann::json system_info = nlohmann::json::object();  // PerfZero's ten keys
  nlohmann::json system = nlohmann::json::object();       // everything else known about the machine
  // Not stored: how many times the run in progress changed any of the above (Recorder::add_system_entry),
  // so that an output keeping a copy of it (the trial reports, built behind) knows when to copy again.
  std::uint64_t edits = 0;
};

struct Run {
  RunInfo info;
  std::string status = "running";  // running, completed, interrupted
  std::vector<ComparisonSpec> comparisons;
  std::vector<Case> cases;
  std::string plan_fingerprint;  // as run.json stored it; empty for runs written before it existed

  Case* find_case(const std::string& name);
  const Case* find_case(const std::string& name) const;
};

// "builtin", "command" or "python": the reports' perfzero_cpp.method_type.
const char* method_type(const Case& c);
// method_type's text back to the two fields it stands for.
void set_method_type(Case& c, const std::string& type);

// The worst outcome among a case's trials; interrupted when none ran.
Outcome case_outcome(const Case& c);
// The case without its trials and warm-ups: what an output needs of it while the lists grow.
Case case_heading(const Case& c);
// Whether a trial gets its own files (Trial::report, the samplers' logs) when the run writes them:
// warm-ups are not measurements, and an interrupted trial is run again by --resume.
inline bool gets_trial_report(const Trial& t) { return !t.warmup && t.outcome != Outcome::interrupted; }

}  // namespace perfzero::results
