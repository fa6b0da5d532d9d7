// `perfzero compare BASELINE CANDIDATE` (docs/compare.md).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "commands/history_database.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "compare/compare_runs.hpp"
#include "compare/comparison_output.hpp"
#include "compare/confounding.hpp"
#include "compare/formats.hpp"
#include "compare/gate.hpp"
#include "compare/history_compare.hpp"
#include "history/run_id_prefix.hpp"
#include "history/store.hpp"
#include "results/reader.hpp"

namespace perfzero::commands {

namespace {

compare::Settings settings_of(const cli::CompareOptions& o) {
  compare::Settings s;
  s.min_change = o.min_change;
  s.alpha = o.alpha;
  s.max_cv = o.max_cv;
  s.resamples = o.resamples;
  s.seed = o.seed;
  s.use_flagged = o.use_flagged;
  s.metrics = o.metrics;
  s.pass_on = {o.pass_on.undecided, o.pass_on.missing};
  return s;
}

// A run that cannot be read is the user's input, not a harness fault: one line, exit 2. What the
// reader met (a partial run, lines its harness did not write) is said on stderr and in the JSON.
results::LoadedRun load(const std::string& path) {
  try {
    results::LoadedRun loaded = results::read_run(path);
    for (const auto& w : loaded.warnings) fmt::print(stderr, "perfzero compare: warning: {}\n", w);
    if (const auto partial = results::partial_warning(loaded, path)) {
      fmt::print(stderr, "perfzero compare: warning: {}\n", *partial);
    }
    return loaded;
  } catch (const results::ReadError& e) {
    throw UsageError(fmt::format("compare: cannot read {}: {}", path, e.what()));
  } catch (const std::exception& e) {
    throw UsageError(fmt::format("compare: cannot read {}: {}", path, e.what()));
  }
}

// --markdown/--json name files the user chose: a refusal is exit 4, as for any output.
void write_extra(const std::string& path, const std::string& text) {
  if (path.empty()) return;
  try {
    files::write_atomically(path, text);
  } catch (const std::exception& e) {
    throw OutputError(fmt::format("compare: cannot write {}: {}", path, e.what()));
  }
}

// Prints the comparison as asked (and writes the extra files); the exit status is the gate's (compare/gate.hpp).
int print_comparison(const compare::RunComparison& report, const cli::CompareOptions& options) {
  write_extra(options.markdown_file, compare::to_markdown(report));
  write_extra(options.json_file, compare::to_json_text(report));
  write_extra(options.junit_file, compare::to_junit(report, "perfzero compare"));
  if (!compare::print_report(report, options.format, options.colour)) return to_int(ExitCode::output_unwritable);
  return compare::gate(report).exit_status;
}

// The candidate against the last --last runs of --label in the results history.
compare::RunComparison compare_with_history(const cli::CompareOptions& options, const results::Run& candidate) {
  try {
    history::Store store = open_history_for_reading(options.history_db, "compare --history");
    const auto settings = settings_of(options);
    const auto history =
        store.label_medians(options.label, options.last, candidate.info.execution_id, settings.use_flagged);
    compare::RunComparison report =
        compare::compare_with_history(history.medians, candidate, settings, options.z_threshold, history.all_disturbed);
    report.baseline = {fmt::format("{} label {} (last {} runs: {} found)", store.describe(), options.label,
                                   options.last, history.runs),
                       "", options.label, false, 0};
    return report;
  } catch (const history::HistoryError& e) {
    throw OutputError(fmt::format("compare --history: {}", e.what()));
  }
}

// --history: CANDIDATE is a run directory, or else a run stored in the database, named by its id or
// a unique prefix of it (a run already ingested, judged against the ones before it).
results::Run history_candidate(const cli::CompareOptions& options) {
  std::error_code ec;
  const bool url = options.history_db.find("://") != std::string::npos;
  if (std::filesystem::exists(std::filesystem::symlink_status(options.candidate, ec)) ||
      (!url && !std::filesystem::exists(options.history_db))) {
    return load(options.candidate).run;
  }
  try {
    history::Store store(options.history_db);
    const auto run = store.show(history::resolve_run_id(store, options.candidate));
    if (!run) throw UsageError(fmt::format("compare: no run directory or stored run {}", options.candidate));
    return *run;
  } catch (const history::HistoryError& e) {
    throw OutputError(fmt::format("compare --history: {}", e.what()));
  }
}

}  // namespace

int compare_command(const cli::CompareOptions& options) {
  if (!options.history_db.empty()) {
    const results::Run candidate = history_candidate(options);
    compare::RunComparison report = compare_with_history(options, candidate);
    report.candidate.source = options.candidate;
    return print_comparison(report, options);
  }
  const results::LoadedRun baseline = load(options.baseline);
  const results::LoadedRun candidate = load(options.candidate);
  compare::RunComparison report = compare::compare_runs(baseline.run, candidate.run, settings_of(options));
  compare::mark_confounding(report, baseline.run, candidate.run);
  report.baseline.source = options.baseline;
  report.candidate.source = options.candidate;
  report.baseline.partial = baseline.partial();
  report.candidate.partial = candidate.partial();
  report.baseline.foreign_journal_lines = baseline.foreign_lines;
  report.candidate.foreign_journal_lines = candidate.foreign_lines;
  return print_comparison(report, options);
}

}  // namespace perfzero::commands
