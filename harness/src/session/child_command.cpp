#include "session/child_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <random>

#include <fmt/format.h>

#include "api/param_json.hpp"
#include "api/result_protocol.hpp"
#include "child_results/google_benchmark_result.hpp"
#include "child_results/tool_output.hpp"
#include "common/install_layout.hpp"
#include "common/program_path.hpp"
#include "common/text.hpp"
#include "common/trial_files.hpp"

extern char** environ;

namespace perfzero::session {

HarnessPaths find_harness_paths() {
  const auto dir = files::helper_dir();
  HarnessPaths paths;
  paths.launcher = dir / "perfzero-launch";
  if (const char* l = std::getenv("PERFZERO_LAUNCH")) paths.launcher = l;
  paths.rank_agent = dir / "perfzero-rank";
  if (const char* r = std::getenv("PERFZERO_RANK_AGENT")) paths.rank_agent = r;
  const char* mpirun = std::getenv("PERFZERO_MPIRUN");
  const char* path = std::getenv("PATH");
  paths.mpirun = files::find_program(mpirun != nullptr ? mpirun : "mpirun", path != nullptr ? path : "");
  paths.slurm = runner::find_slurm_tools(path != nullptr ? path : "");
  paths.salloc = files::find_program("salloc", path != nullptr ? path : "");
  if (::access(paths.launcher.c_str(), X_OK) != 0) {
    throw std::runtime_error(fmt::format(
        "{} is missing or not executable; it is built beside perfzero and installed in <prefix>/libexec/perfzero",
        paths.launcher.string()));
  }
  return paths;
}

namespace {

std::uint64_t attempt_token() {
  static std::mt19937_64 generator{std::random_device{}()};
  return generator();
}

// The tool's own flags for a JSON report in the trial's directory, after the suite's arguments.
void add_report_flags(config::OutputFormat output, const std::filesystem::path& trial_dir,
                      std::vector<std::string>& argv) {
  switch (output) {
    case config::OutputFormat::google_benchmark:
      argv.push_back("--benchmark_out=" + (trial_dir / child_results::kGoogleBenchmarkFile).string());
      argv.push_back("--benchmark_out_format=json");
      break;
    case config::OutputFormat::fio:
      argv.push_back("--output-format=json");
      argv.push_back("--output=" + (trial_dir / child_results::kFioFile).string());
      break;
    case config::OutputFormat::iperf3:
      argv.push_back("--json");
      argv.push_back("--logfile=" + (trial_dir / child_results::kIperf3File).string());
      break;
    case config::OutputFormat::perfzero:
    case config::OutputFormat::none:
      break;
  }
}

}  // namespace

const std::map<std::string, std::string>& InheritedEnvironment::now() {
  std::size_t n = 0;
  bool same = true;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry, ++n) {
    same = same && n < seen_.size() && seen_[n] == *entry;
  }
  if (same && n == seen_.size() && !seen_.empty()) return parsed_;
  seen_.clear();
  parsed_.clear();
  ++generation_;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    seen_.push_back(*entry);
    const std::string text(*entry);
    const auto eq = text.find('=');
    if (eq != std::string::npos) parsed_[text.substr(0, eq)] = text.substr(eq + 1);
  }
  return parsed_;
}

namespace {

// The harness's variables that differ from trial to trial, in the order of_trial fills them.
constexpr const char* kPerTrial[] = {detail::kResultFileEnv, "PERFZERO_TRIAL_DIR", "PERFZERO_TRIAL", "TMPDIR",
                                     "PERFZERO_ATTEMPT"};

}  // namespace

void ChildEnvironments::merge(const config::PlannedCase& planned, const std::string& run_dir,
                              const std::string& root_data_dir) {
  Merged m;
  m.planned = &planned;
  m.name = planned.name;
  m.external = planned.external;
  m.suite_env = planned.env;
  m.params = planned.params;
  m.run_dir = run_dir;
  m.root_data_dir = root_data_dir;
  // What the harness sets wins over the suite, and both over what the child inherits.
  std::map<std::string, std::string> env = planned.env;
  for (const char* name : kPerTrial) env[name].clear();
  // The run's output directory (trial dirs are <run>/<case>/trial_N): once-per-run figures go there.
  env["PERFZERO_RUN_DIR"] = run_dir;
  // For the method (docs/suites.md). perfzero-launch checks its parent through the pid its --serve
  // argument names, not through this variable.
  env["PERFZERO_HARNESS_PID"] = std::to_string(::getpid());
  env["PERFZERO_METHOD"] = planned.name;
  if (!root_data_dir.empty()) env["PERFZERO_ROOT_DATA_DIR"] = root_data_dir;
  if (planned.external) {
    for (const auto& [name, value] : planned.params) {
      env["PERFZERO_PARAM_" + text::to_upper(name)] = format_param_value(value);
    }
  }
  const auto& base = inherited_.now();
  m.inherited_generation = inherited_.generation();
  m.environment.reserve(base.size() + env.size());
  auto set = env.begin();
  for (const auto& [k, v] : base) {
    for (; set != env.end() && set->first < k; ++set) m.environment.push_back(set->first + "=" + set->second);
    if (set != env.end() && set->first == k) continue;  // set by the harness or the suite: theirs wins
    m.environment.push_back(k + "=" + v);
  }
  for (; set != env.end(); ++set) m.environment.push_back(set->first + "=" + set->second);
  for (const char* name : kPerTrial) {
    const std::string entry = std::string(name) + "=";
    const auto at = std::find(m.environment.begin(), m.environment.end(), entry);
    m.per_trial_slots.push_back(static_cast<std::size_t>(at - m.environment.begin()));
  }
  merged_ = std::move(m);
}

std::vector<std::string> ChildEnvironments::of_trial(const config::PlannedCase& planned,
                                                     const std::filesystem::path& trial_dir, int trial,
                                                     const std::string& root_data_dir) {
  std::string run_dir = trial_dir.parent_path().parent_path().string();
  inherited_.now();  // parses again when it changed (a Slurm allocation's SLURM_JOB_ID)
  // The case's own address, and what of it goes into the environment: an object reused for another
  // case (a test's) is merged again.
  if (!merged_ || merged_->planned != &planned || merged_->name != planned.name ||
      merged_->external != planned.external || merged_->inherited_generation != inherited_.generation() ||
      merged_->run_dir != run_dir || merged_->root_data_dir != root_data_dir || merged_->suite_env != planned.env ||
      merged_->params != planned.params) {
    merge(planned, run_dir, root_data_dir);
  }
  std::vector<std::string> environment = merged_->environment;
  // New at every start of the trial: a resumed run starts it again in the same directory, where an
  // earlier attempt's files (a multi-host method's rendezvous) must not be taken for this one's.
  const std::string values[] = {(trial_dir / files::kResultFile).string(), trial_dir.string(), std::to_string(trial),
                                (trial_dir / "tmp").string(), fmt::format("{:016x}", attempt_token())};
  for (std::size_t i = 0; i < std::size(kPerTrial); ++i) environment[merged_->per_trial_slots[i]] += values[i];
  return environment;
}

runner::ChildCommand child_command(const config::PlannedCase& planned, const std::filesystem::path& trial_dir,
                                   int trial, const std::string& root_data_dir, ChildEnvironments& environments) {
  runner::ChildCommand command;
  if (planned.external) {
    command.argv = planned.command.argv;
    add_report_flags(planned.command.output, trial_dir, command.argv);
    if (planned.python) {
      // PerfZero's output_dir and root_data_dir, which the class's constructor receives.
      command.argv.insert(command.argv.end(), {"--output_dir", trial_dir.string(), "--root_data_dir", root_data_dir});
    }
    command.working_dir = planned.command.working_dir;
  } else {
    command.argv = {planned.worker.string(), planned.method};
    // A string parameter may hold bytes that are not UTF-8; JSON cannot carry them, so they become U+FFFD.
    if (!planned.params.empty()) {
      command.argv.push_back(
          detail::params_to_json(planned.params).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    command.working_dir = trial_dir;
  }
  command.environment = environments.of_trial(planned, trial_dir, trial, root_data_dir);
  return command;
}

}  // namespace perfzero::session
