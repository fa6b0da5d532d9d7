#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api/param_json.hpp"
#include "app/child_command.hpp"
#include "app/commands.hpp"
#include "app/output_dir.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "progress/progress.hpp"
#include "report/redact.hpp"
#include "report/run_summary.hpp"
#include "report/trial_report.hpp"
#include "runner/google_benchmark_result.hpp"
#include "runner/signals.hpp"
#include "runner/trial_runner.hpp"

extern char** environ;

namespace perfzero::app {

namespace {

using Clock = std::chrono::steady_clock;

double epoch_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

report::RunContext make_context(const cli::Options& o, const ClaimedOutput& output) {
  report::RunContext run;
  run.execution_id = output.execution_id;
  run.execution_timestamp = epoch_seconds();
  run.execution_label = o.execution_label;
  run.platform_name = o.platform_name;
  run.system_name = o.system_name;
  run.ml_framework_build_label = o.ml_framework_build_label;
  run.output_dir = output.dir;
  run.suite_files = o.configs;
  run.env_vars = report::redacted_environment(environ);
  // Our images set these (docker/Dockerfile); docker/run.sh or the user may add the digest.
  if (const char* image = std::getenv("PERFZERO_IMAGE")) {
    auto env_or = [](const char* name) {
      const char* value = std::getenv(name);
      return std::string(value != nullptr ? value : "");
    };
    run.setup_info = {{"docker_image", image},
                      {"docker_image_revision", env_or("PERFZERO_IMAGE_REVISION")},
                      {"docker_image_digest", env_or("PERFZERO_IMAGE_DIGEST")}};
  }
  run.flags = report::redacted_flags(o.given);
  sysinfo::Paths paths;
  paths.dmi = o.dmi_root;
  run.system = sysinfo::collect_system_info(paths);
  run.instance_type = !o.instance_type.empty() ? o.instance_type : run.system.cloud.instance_type;
  return run;
}

void write_manifest(const report::RunContext& run, const std::vector<config::PlannedCase>& plan,
                    const std::string& status) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : plan) cases.push_back({{"name", c.name}, {"trials", c.trials}, {"origin", c.origin}});
  const nlohmann::json manifest = {{"execution_id", run.execution_id},
                                   {"execution_timestamp", run.execution_timestamp},
                                   {"status", status},
                                   {"flags", run.flags},
                                   {"plan", cases}};
  files::write_atomically(run.output_dir / kRunManifest, manifest.dump(2) + "\n");
}

class RunLoop {
 public:
  RunLoop(const cli::Options& options, const report::RunContext& run, const HarnessPaths& paths, bool resuming)
      : options_(options), run_(run), paths_(paths), resuming_(resuming), run_start_(Clock::now()) {}

  // Returns the stop signal when interrupted.
  std::optional<int> run_all(const std::vector<config::PlannedCase>& plan, bool interleave,
                             std::vector<report::CaseSummary>& cases) {
    const auto schedule = make_schedule(plan, interleave);
    progress_.emplace(stdout, ::isatty(STDOUT_FILENO) == 1, static_cast<int>(schedule.size()));
    std::vector<std::optional<std::size_t>> summary_of(plan.size());  // plan index -> index in `cases`
    for (std::size_t i = 0; i < schedule.size() && !stop_; ++i) {
      const Step& step = schedule[i];
      const config::PlannedCase& planned = plan[step.case_index];
      if (!summary_of[step.case_index]) {
        summary_of[step.case_index] = cases.size();
        report::CaseSummary& fresh = cases.emplace_back();
        fresh.name = planned.name;
        fresh.method = planned.method;
        fresh.params = detail::params_to_json(planned.params);
        fresh.trials_planned = planned.trials;
      }
      report::CaseSummary& summary = cases[*summary_of[step.case_index]];
      run_step(planned, step, summary);
      // When a method's last step is done (every step, when interleaved), so that a harness crash
      // loses at most the method that was running.
      const bool method_done = i + 1 == schedule.size() || schedule[i + 1].case_index != step.case_index;
      if (method_done || stop_) report::write_run_summary(run_, cases, stop_ ? "interrupted" : "running");
    }
    return stop_;
  }

 private:
  struct Step {
    std::size_t case_index;
    bool warmup;
    int number;  // 1-based
  };

  // Sequential: each method's warm-ups and trials together. Interleaved: every warm-up first, then
  // trial 1 of every method, trial 2 of every method, ...: a drifting machine (a noisy neighbour,
  // thermal state) then biases no method against another.
  static std::vector<Step> make_schedule(const std::vector<config::PlannedCase>& plan, bool interleave) {
    std::vector<Step> steps;
    int rounds = 0;
    for (std::size_t c = 0; c < plan.size(); ++c) {
      for (int w = 1; w <= plan[c].warmup_trials; ++w) steps.push_back({c, true, w});
      if (!interleave) {
        for (int t = 1; t <= plan[c].trials; ++t) steps.push_back({c, false, t});
      }
      rounds = std::max(rounds, plan[c].trials);
    }
    if (interleave) {
      for (int t = 1; t <= rounds; ++t) {
        for (std::size_t c = 0; c < plan.size(); ++c) {
          if (t <= plan[c].trials) steps.push_back({c, false, t});
        }
      }
    }
    return steps;
  }

  void run_step(const config::PlannedCase& planned, const Step& step, report::CaseSummary& summary) {
    const auto case_dir = run_.output_dir / text::path_component(planned.name);
    if (step.warmup) {
      auto record = execute(planned, case_dir / fmt::format("warmup_{}", step.number), step.number,
                            fmt::format("warm-up {}/{}", step.number, planned.warmup_trials));
      if (record) summary.warmups.push_back(report::summarize_trial(*record, run_.output_dir));
      return;
    }
    const auto trial_dir = case_dir / fmt::format("trial_{}", step.number);
    const std::string what = fmt::format("trial {}/{}", step.number, planned.trials);
    if (resuming_) {
      if (auto previous = load_previous(trial_dir)) {
        progress_->resumed(planned.name, what, previous->outcome);
        summary.trials.push_back(*previous);
        return;
      }
    }
    auto record = execute(planned, trial_dir, step.number, what);
    if (!record) return;
    if (record->classification.outcome != Outcome::interrupted) report::write_trial_files(run_, *record);
    summary.trials.push_back(report::summarize_trial(*record, run_.output_dir));
  }

  std::optional<report::TrialSummary> load_previous(const std::filesystem::path& trial_dir) const {
    const auto text = files::read_text(trial_dir / report::kReportFile);
    if (!text) return std::nullopt;
    const auto doc = nlohmann::json::parse(*text, nullptr, false);
    if (doc.is_discarded()) return std::nullopt;
    auto summary = report::summary_from_report(doc);
    if (summary) summary->report = std::filesystem::relative(trial_dir / report::kReportFile, run_.output_dir).string();
    return summary;
  }

  std::optional<report::TrialRecord> execute(const config::PlannedCase& planned, const std::filesystem::path& dir,
                                             int trial, const std::string& what) {
    if (auto sig = runner::take_pending_stop_signal()) {
      stop_ = *sig;
      return std::nullopt;
    }
    const auto started = Clock::now();
    report::TrialRecord record;
    record.planned = &planned;
    record.trial = trial;
    record.dir = dir;
    record.started_offset = std::chrono::duration<double>(started - run_start_).count();
    std::filesystem::create_directories(dir);
    std::error_code ignored;
    std::filesystem::remove(dir / report::kResultFile, ignored);
    std::filesystem::remove(dir / runner::kGoogleBenchmarkFile, ignored);
    std::filesystem::remove(dir / report::kChildLogFile, ignored);

    runner::TrialRequest request;
    request.command = child_command(planned, paths_, dir, trial, options_.root_data_dir);
    request.launcher = paths_.launcher;
    request.log_path = dir / report::kChildLogFile;
    request.rusage_path = dir / ".kernel_rusage";
    request.timeout = planned.timeout;
    request.monitor_interval = planned.monitor_interval;
    request.on_tick = [&](double elapsed) { progress_->running(planned.name, what, elapsed); };
    if (options_.debug) {
      progress_->note(
          fmt::format("debug: {} in {}", text::join(request.command.argv, " "), request.command.working_dir.string()));
    }

    record.execution = runner::run_trial(request);
    record.result = planned.external && planned.command.output == config::OutputFormat::google_benchmark
                        ? runner::read_google_benchmark(dir / runner::kGoogleBenchmarkFile)
                        : runner::read_child_result(dir / report::kResultFile);
    record.classification = runner::classify(record.execution, record.result);
    record.harness_seconds = std::chrono::duration<double>(Clock::now() - started).count();
    if (record.classification.outcome == Outcome::interrupted) stop_ = record.execution.signal;
    progress_->finished(planned.name, what, record.classification.outcome, record.classification.detail,
                        record.execution.wall_seconds);
    return record;
  }

  const cli::Options& options_;
  const report::RunContext& run_;
  const HarnessPaths& paths_;
  bool resuming_;
  Clock::time_point run_start_;
  std::optional<progress::Progress> progress_;
  std::optional<int> stop_;
};

}  // namespace

int run_benchmarks(const cli::Options& options, const std::vector<config::PlannedCase>& plan,
                   const std::vector<config::Comparison>& comparisons, bool interleave) {
  const HarnessPaths paths = find_harness_paths();
  const ClaimedOutput output = claim_output_dir(options.output_dir, options.execution_id, options.resume);
  report::RunContext run = make_context(options, output);
  run.comparisons = comparisons;
  write_manifest(run, plan, "running");
  fmt::print("perfzero: run {} -> {}\n", run.execution_id, run.output_dir.string());
  std::fflush(stdout);

  std::vector<report::CaseSummary> cases;
  RunLoop loop(options, run, paths, output.resuming);
  const auto stop = loop.run_all(plan, interleave, cases);
  const std::string status = stop ? "interrupted" : "completed";
  report::write_run_summary(run, cases, status);
  write_manifest(run, plan, status);
  ::close(output.lock_fd);

  int not_succeeded = 0;
  for (const auto& c : cases) {
    if (!counts_as_success(report::case_outcome(c))) ++not_succeeded;
  }
  fmt::print("perfzero: {}: {} method(s), {} not succeeded; summary in {}\n", status, cases.size(), not_succeeded,
             (run.output_dir / "summary.md").string());
  if (stop) {
    fmt::print(stderr, "perfzero: interrupted by {}; --resume continues this run\n", runner::signal_name(*stop));
    return exit_code_for_signal(*stop);
  }
  return static_cast<int>(not_succeeded > 0 ? ExitCode::some_not_succeeded : ExitCode::all_succeeded);
}

}  // namespace perfzero::app
