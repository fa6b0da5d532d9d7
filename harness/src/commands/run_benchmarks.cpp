// `perfzero run`: claims the output directory, records the machine, runs the plan and leaves the
// results on disk, whatever happens to the children.
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "commands/settings_from_flags.hpp"
#include "common/errors.hpp"
#include "engines/engine.hpp"
#include "history/history_changes.hpp"
#include "history/store.hpp"
#include "results/statistics.hpp"
#include "runner/outcome_classifier.hpp"
#include "runner/signals.hpp"
#include "session/run_session.hpp"

namespace perfzero::commands {

namespace {

// Progress for a person: when stdout is gone (a closed pipe) the line is dropped, the run goes on.
void say(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
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
// run's files are written either way; a database that refuses is one line and exit 4. The change
// points the run makes in its series are said; with --fail_on_change a slower one is exit 1.
enum class Stored { stored, refused, slower_change };

Stored store_in_history(const std::string& db, const results::Run& run, bool fail_on_change) {
  try {
    if (db.find("://") == std::string::npos && std::filesystem::path(db).has_parent_path()) {
      std::filesystem::create_directories(std::filesystem::path(db).parent_path());
    }
    history::Store store(db);
    const bool stored = store.ingest(run) != history::Store::Ingested::already_stored;
    say(fmt::format("perfzero: {} in the history {}\n", stored ? "stored" : "already stored", store.describe()));
    // The run is stored whatever comes next: a search that fails is a warning, not exit 4.
    bool slower = false;
    try {
      const auto made = history::changes_made_by(store, run.info, compare::ChangePointSettings{});
      for (const auto& c : made.changes) {
        say(history::run_change_line(c) + "\n");
        slower = slower || c.verdict == compare::Verdict::slower;
      }
    } catch (const std::exception& e) {
      fmt::print(stderr,
                 "perfzero: warning: --history: the run is stored, but its change points were not searched: {}\n",
                 e.what());
    }
    return slower && fail_on_change ? Stored::slower_change : Stored::stored;
  } catch (const std::exception& e) {
    fmt::print(stderr, "perfzero: error: --history: {}; the run's results are in its directory\n", e.what());
    return Stored::refused;
  }
}

// A run whose end could not be written (a summary the disk refused, the final syncfs) or that was
// aborted: the one error line, and exit 4. Nothing when the run's files are whole.
std::optional<int> unwritten_end(const results::RunStatus& status, const std::optional<std::string>& unwritten,
                                 const std::filesystem::path& dir) {
  using results::RunStatusKind;
  if (unwritten && status.is(RunStatusKind::completed)) {
    // Every trial ran and is recorded; only the end failed (a summary the disk refused, the final
    // syncfs): nothing is left for --resume, so the line says what may be missing instead.
    fmt::print(stderr, "perfzero: error: the run completed, but {}; its files may not all be on disk (results in {})\n",
               *unwritten, dir.string());
    return to_int(ExitCode::output_unwritable);
  }
  if (status.is(RunStatusKind::aborted) || unwritten) {
    const std::string why = status.is(RunStatusKind::aborted) ? status.why : *unwritten;
    fmt::print(stderr, "perfzero: error: run stopped: {}; results so far in {} (--resume continues it)\n", why,
               dir.string());
    return to_int(ExitCode::output_unwritable);
  }
  return std::nullopt;
}

// The exit status of a run whose files are whole: a stop signal's, 1 for a slower change point with
// --fail_on_change or a method that did not succeed, else 0; with a last line when stopped.
int exit_status(const std::optional<int>& stop, const results::RunStatus& status, bool slower_change,
                const Tally& tally) {
  using results::RunStatusKind;
  if (stop && status.is(RunStatusKind::interrupted_after_completion)) {
    fmt::print(stderr,
               "perfzero: {} came after the last trial, while the summaries were written: they are whole; the "
               "run is marked {}\n",
               runner::signal_name(*stop), status.text());
    return exit_code_for_signal(*stop);
  }
  if (stop) {
    fmt::print(stderr, "perfzero: interrupted by {}; --resume continues this run\n", runner::signal_name(*stop));
    return exit_code_for_signal(*stop);
  }
  if (slower_change) {
    fmt::print(stderr, "perfzero: --fail_on_change: the run made a slower change point in its series\n");
    return to_int(ExitCode::some_not_succeeded);  // compare's code for slower, which is 1 too
  }
  return static_cast<int>(tally.not_succeeded > 0 ? ExitCode::some_not_succeeded : ExitCode::all_succeeded);
}

}  // namespace

int run_benchmarks(const cli::Options& options, const std::vector<config::PlannedCase>& plan,
                   const std::vector<config::Comparison>& comparisons, bool interleave,
                   const nlohmann::json& site_packages) {
  const session::HarnessPaths paths = session::find_harness_paths();
  // The run directory is claimed first (its lock: a second perfzero must not touch a live run's
  // allocation); on --resume that also releases what a killed run held, so the request below does not
  // queue behind it. What is held is released when this function returns, however the run ends.
  engines::MakeRunHold make_hold;
  if (options.slurm_allocate) {
    make_hold = engines::prepare_run(config::LaunchEngine::slurm, "--slurm_allocate", plan, paths, say);
  }
  session::SessionSettings settings = session_settings(options);
  settings.site_packages = site_packages;
  session::RunSession run_session(settings, paths, plan, comparisons);
  const std::filesystem::path dir = run_session.output().dir;
  std::unique_ptr<engines::RunHold> hold;
  try {
    if (make_hold) hold = make_hold(dir);
  } catch (const std::exception& e) {
    static_cast<void>(run_session.finish(results::RunStatus::aborted(e.what())));
    throw;
  }
  say(fmt::format("perfzero: run {} -> {}\n", run_session.run().info.execution_id, dir.string()));

  using results::RunStatusKind;
  std::optional<int> stop;
  results::RunStatus status{RunStatusKind::completed, {}};
  try {
    stop = run_session.loop().run_all(interleave);
    if (stop) status = {RunStatusKind::interrupted, {}};
  } catch (const OutputError& e) {
    status = results::RunStatus::aborted(e.what());
  }
  std::optional<std::string> unwritten = run_session.finish(status);
  if (run_session.late_signal()) {
    stop = run_session.late_signal();
    status = {RunStatusKind::interrupted_after_completion, {}};
  }
  if (const auto failed = unwritten_end(status, unwritten, dir)) return *failed;

  const Tally tally = tally_cases(plan.size(), run_session.run());
  const std::string disturbed = results::describe(results::run_disturbances(run_session.run()));
  say(fmt::format(
      "perfzero: {}: {} method(s), {} not succeeded{}; results in {}\n", status.text(), tally.ran, tally.not_succeeded,
      disturbed.empty() ? "" : fmt::format("; {}: {}", disturbed, results::kDisturbanceAdvice), dir.string()));
  if (std::ferror(stdout) != 0) {
    // Losing the terminal loses lines, never results: say once, where it may still be seen.
    fmt::print(stderr, "perfzero: warning: standard output was closed; results are in {}\n", dir.string());
  }
  bool slower_change = false;
  if (!stop && !options.history_db.empty()) {
    const Stored stored = store_in_history(options.history_db, run_session.run(), options.fail_on_change);
    if (stored == Stored::refused) return to_int(ExitCode::output_unwritable);
    slower_change = stored == Stored::slower_change;
  }
  run_session.leave_model_to_exit();
  return exit_status(stop, status, slower_change, tally);
}

}  // namespace perfzero::commands
