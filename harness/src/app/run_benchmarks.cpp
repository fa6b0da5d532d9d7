// `perfzero run`: claims the output directory, records the machine, runs the plan and leaves the
// results on disk, whatever happens to the children.
#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

#include "app/commands.hpp"
#include "app/output_dir.hpp"
#include "app/run_loop.hpp"
#include "app/run_setup.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "history/store.hpp"
#include "reporters/reporter.hpp"
#include "results/reader.hpp"
#include "results/recorder.hpp"
#include "results/run_manifest.hpp"
#include "runner/leftovers.hpp"
#include "runner/outcome_classifier.hpp"

namespace perfzero::app {

namespace {

constexpr long kFinalWritesReserve = 256L * 1024L;

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

// Progress for a person: when stdout is gone (a closed pipe) the line is dropped, the run goes on.
void say(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
}

// --resume continues the same plan only: a different one would adopt other cases' trials and drop
// methods from the summary. With --force_resume, the cases the plan no longer has stay in the
// record (after the plan's), and a changed case runs again (RunLoop::previous_trial).
void check_resumed_plan(const cli::Options& options, results::Run& run, const results::Run& previous) {
  run.plan_fingerprint = results::plan_fingerprint(run.cases);
  if (previous.plan_fingerprint.empty() || previous.plan_fingerprint == run.plan_fingerprint) return;
  const auto difference = results::plan_difference(previous.cases, run.cases);
  const std::string what = difference.empty() ? "its cases are in another order" : difference.describe();
  if (!options.force_resume) {
    throw UsageError(fmt::format("--resume: the plan differs from run {}'s: {}; pass --force_resume to resume anyway",
                                 previous.info.execution_id, what));
  }
  fmt::print(stderr, "perfzero: warning: --force_resume: the plan differs from the run's: {}\n", what);
  for (const auto& old : previous.cases) {
    if (run.find_case(old.name) == nullptr) run.cases.push_back(old);
  }
}

std::vector<results::NamedObserver> observers_for(const std::vector<std::string>& names) {
  auto made = reporters::make_reporters(names);
  std::vector<results::NamedObserver> out;
  for (std::size_t i = 0; i < names.size(); ++i) out.push_back({names[i], std::move(made[i])});
  return out;
}

void end_leftovers_of_earlier_run(const ClaimedOutput& output) {
  if (const int killed = runner::end_leftover_processes(output.dir); killed > 0) {
    fmt::print(stderr, "perfzero: warning: --resume: ended {} process(es) the earlier run left running\n", killed);
  }
}

struct Tally {
  int ran = 0;
  int not_succeeded = 0;
};

// The plan's cases only (the first `plan_size`): those a --force_resume keeps from the earlier plan
// are not this run's.
Tally tally_cases(std::size_t plan_size, const results::Run& run) {
  Tally tally;
  for (std::size_t i = 0; i < plan_size; ++i) {
    const results::Case& c = run.cases[i];
    if (c.trials.empty() && c.warmups.empty()) continue;
    ++tally.ran;
    if (!counts_as_success(results::case_outcome(c))) ++tally.not_succeeded;
  }
  return tally;
}

// --history: a completed run only (an interrupted one is stored when --resume completes it). The
// run's files are written either way; a database that refuses is one line and exit 4.
bool store_in_history(const std::string& db, const results::Run& run) {
  try {
    if (db.find("://") == std::string::npos && std::filesystem::path(db).has_parent_path()) {
      std::filesystem::create_directories(std::filesystem::path(db).parent_path());
    }
    history::Store store(db);
    const bool stored = store.ingest(run);
    say(fmt::format("perfzero: {} in the history {}\n", stored ? "stored" : "already stored", store.describe()));
    return true;
  } catch (const std::exception& e) {
    fmt::print(stderr, "perfzero: error: --history: {}; the run's results are in its directory\n", e.what());
    return false;
  }
}

}  // namespace

int run_benchmarks(const cli::Options& options, const std::vector<config::PlannedCase>& plan,
                   const std::vector<config::Comparison>& comparisons, bool interleave) {
  const std::vector<std::string> report_names =
      options.reports.empty() ? reporters::default_reporter_names() : options.reports;
  auto observers = observers_for(report_names);  // before anything is written: a bad name is a usage error
  const HarnessPaths paths = find_harness_paths();
  const ClaimedOutput output = claim_output_dir(options.output_dir, options.execution_id, options.resume);
  if (output.resuming) end_leftovers_of_earlier_run(output);
  std::optional<results::Run> previous = previous_run(output);
  results::Run run = make_run(options, output, plan, comparisons);
  if (previous) check_resumed_plan(options, run, *previous);
  results::Recorder recorder(std::move(run), output.resuming, std::move(observers));
  say(fmt::format("perfzero: run {} -> {}\n", recorder.run().info.execution_id, output.dir.string()));

  const bool with_trial_reports = std::find(report_names.begin(), report_names.end(), "perfzero") != report_names.end();
  RunLoop loop(options, paths, plan, recorder, std::move(previous), with_trial_reports);
  // Room for the final run.json, journal line and summaries when a method fills the disk.
  const auto reserve = output.dir / ".perfzero.reserve";
  files::reserve_space(reserve, kFinalWritesReserve);
  std::optional<int> stop;
  std::string status = "completed";
  try {
    stop = loop.run_all(interleave);
    if (stop) status = "interrupted";
  } catch (const OutputError& e) {
    status = fmt::format("aborted: {}", e.what());
  }
  std::error_code ignored;
  std::filesystem::remove(reserve, ignored);
  std::optional<std::string> unwritten = recorder.finish(status);
  ::close(output.lock_fd);
  if (status.rfind("aborted: ", 0) == 0 || unwritten) {
    const std::string why = unwritten && status.rfind("aborted: ", 0) != 0 ? *unwritten : status.substr(9);
    fmt::print(stderr, "perfzero: error: run stopped: {}; results so far in {} (--resume continues it)\n", why,
               output.dir.string());
    return to_int(ExitCode::output_unwritable);
  }

  const Tally tally = tally_cases(plan.size(), recorder.run());
  say(fmt::format("perfzero: {}: {} method(s), {} not succeeded; results in {}\n", status, tally.ran,
                  tally.not_succeeded, output.dir.string()));
  if (std::ferror(stdout) != 0) {
    // Losing the terminal loses lines, never results: say once, where it may still be seen.
    fmt::print(stderr, "perfzero: warning: standard output was closed; results are in {}\n", output.dir.string());
  }
  if (!stop && !options.history_db.empty() && !store_in_history(options.history_db, recorder.run())) {
    return to_int(ExitCode::output_unwritable);
  }
  if (stop) {
    fmt::print(stderr, "perfzero: interrupted by {}; --resume continues this run\n", runner::signal_name(*stop));
    return exit_code_for_signal(*stop);
  }
  return static_cast<int>(tally.not_succeeded > 0 ? ExitCode::some_not_succeeded : ExitCode::all_succeeded);
}

}  // namespace perfzero::app
