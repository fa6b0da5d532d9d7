#include "session/child_command.hpp"

#include <unistd.h>

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
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    seen_.push_back(*entry);
    const std::string text(*entry);
    const auto eq = text.find('=');
    if (eq != std::string::npos) parsed_[text.substr(0, eq)] = text.substr(eq + 1);
  }
  return parsed_;
}

runner::ChildCommand child_command(const config::PlannedCase& planned, const std::filesystem::path& trial_dir,
                                   int trial, const std::string& root_data_dir, InheritedEnvironment& inherited) {
  runner::ChildCommand command;
  // What the harness sets over what the child inherits: merged below in name order, without a copy
  // of the inherited environment per trial.
  std::map<std::string, std::string> env = planned.env;
  env[detail::kResultFileEnv] = (trial_dir / files::kResultFile).string();
  env["PERFZERO_TRIAL_DIR"] = trial_dir.string();
  // The run's output directory (trial dirs are <run>/<case>/trial_N): once-per-run figures go there.
  env["PERFZERO_RUN_DIR"] = trial_dir.parent_path().parent_path().string();
  env["PERFZERO_TRIAL"] = std::to_string(trial);
  // A TMPDIR of its own, so what a trial leaves there is seen (samplers/leftover_files_sampler).
  env["TMPDIR"] = (trial_dir / "tmp").string();
  // For the method (docs/suites.md). perfzero-launch checks its parent through the pid its --serve
  // argument names, not through this variable.
  env["PERFZERO_HARNESS_PID"] = std::to_string(::getpid());
  env["PERFZERO_METHOD"] = planned.name;
  // New at every start of the trial: a resumed run starts it again in the same directory, where an
  // earlier attempt's files (a multi-host method's rendezvous) must not be taken for this one's.
  env["PERFZERO_ATTEMPT"] = fmt::format("{:016x}", attempt_token());
  if (!root_data_dir.empty()) env["PERFZERO_ROOT_DATA_DIR"] = root_data_dir;

  if (planned.external) {
    command.argv = planned.command.argv;
    add_report_flags(planned.command.output, trial_dir, command.argv);
    if (planned.python) {
      // PerfZero's output_dir and root_data_dir, which the class's constructor receives.
      command.argv.insert(command.argv.end(), {"--output_dir", trial_dir.string(), "--root_data_dir", root_data_dir});
    }
    command.working_dir = planned.command.working_dir;
    for (const auto& [name, value] : planned.params) {
      env["PERFZERO_PARAM_" + text::to_upper(name)] = format_param_value(value);
    }
  } else {
    command.argv = {planned.worker.string(), planned.method};
    // A string parameter may hold bytes that are not UTF-8; JSON cannot carry them, so they become U+FFFD.
    if (!planned.params.empty()) {
      command.argv.push_back(
          detail::params_to_json(planned.params).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    command.working_dir = trial_dir;
  }
  const auto& base = inherited.now();
  command.environment.reserve(base.size() + env.size());
  auto set = env.begin();
  for (const auto& [k, v] : base) {
    for (; set != env.end() && set->first < k; ++set) command.environment.push_back(set->first + "=" + set->second);
    if (set != env.end() && set->first == k) continue;  // set by the harness or the suite: theirs wins
    command.environment.push_back(k + "=" + v);
  }
  for (; set != env.end(); ++set) command.environment.push_back(set->first + "=" + set->second);
  return command;
}

}  // namespace perfzero::session
