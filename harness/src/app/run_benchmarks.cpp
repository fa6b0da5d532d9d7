// `perfzero run`: claims the output directory, records the machine, runs the plan and leaves the
// results on disk, whatever happens to the children.
#include <unistd.h>

#include <fmt/format.h>

#include "app/commands.hpp"
#include "app/output_dir.hpp"
#include "app/run_loop.hpp"
#include "app/run_setup.hpp"
#include "common/errors.hpp"
#include "reporters/reporter.hpp"
#include "results/reader.hpp"
#include "results/recorder.hpp"
#include "runner/outcome_classifier.hpp"

namespace perfzero::app {

namespace {

// The run being resumed, as its files say (this version's journal, or an earlier version's reports).
std::optional<results::Run> previous_run(const ClaimedOutput& output) {
  if (!output.resuming) return std::nullopt;
  try {
    auto loaded = results::read_run(output.dir);
    for (const auto& warning : loaded.warnings) fmt::print(stderr, "perfzero: warning: {}\n", warning);
    return std::move(loaded.run);
  } catch (const results::ReadError& e) {
    throw UsageError(fmt::format("--resume: cannot read the run in {}: {}", output.dir.string(), e.what()));
  }
}

std::vector<results::NamedObserver> observers_for(const std::vector<std::string>& names) {
  auto made = reporters::make_reporters(names);
  std::vector<results::NamedObserver> out;
  for (std::size_t i = 0; i < names.size(); ++i) out.push_back({names[i], std::move(made[i])});
  return out;
}

}  // namespace

int run_benchmarks(const cli::Options& options, const std::vector<config::PlannedCase>& plan,
                   const std::vector<config::Comparison>& comparisons, bool interleave) {
  const std::vector<std::string> report_names =
      options.reports.empty() ? reporters::default_reporter_names() : options.reports;
  auto observers = observers_for(report_names);  // before anything is written: a bad name is a usage error
  const HarnessPaths paths = find_harness_paths();
  const ClaimedOutput output = claim_output_dir(options.output_dir, options.execution_id, options.resume);
  std::optional<results::Run> previous = previous_run(output);
  results::Recorder recorder(make_run(options, output, plan, comparisons), output.resuming, std::move(observers));
  fmt::print("perfzero: run {} -> {}\n", recorder.run().info.execution_id, output.dir.string());
  std::fflush(stdout);

  const bool with_trial_reports = std::find(report_names.begin(), report_names.end(), "perfzero") != report_names.end();
  RunLoop loop(options, paths, plan, recorder, std::move(previous), with_trial_reports);
  const auto stop = loop.run_all(interleave);
  const std::string status = stop ? "interrupted" : "completed";
  recorder.finish(status);
  ::close(output.lock_fd);

  int ran = 0;
  int not_succeeded = 0;
  for (const auto& c : recorder.run().cases) {
    if (c.trials.empty() && c.warmups.empty()) continue;
    ++ran;
    if (!counts_as_success(results::case_outcome(c))) ++not_succeeded;
  }
  fmt::print("perfzero: {}: {} method(s), {} not succeeded; results in {}\n", status, ran, not_succeeded,
             output.dir.string());
  if (stop) {
    fmt::print(stderr, "perfzero: interrupted by {}; --resume continues this run\n", runner::signal_name(*stop));
    return exit_code_for_signal(*stop);
  }
  return static_cast<int>(not_succeeded > 0 ? ExitCode::some_not_succeeded : ExitCode::all_succeeded);
}

}  // namespace perfzero::app
