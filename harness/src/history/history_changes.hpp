#pragma once
// `perfzero history changes` and what `run --history` says of a run's own change points
// (docs/history.md): the series of the results history, their change points, and the outputs.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/history_options.hpp"
#include "compare/change_points.hpp"
#include "compare/comparison.hpp"
#include "history/store.hpp"

namespace perfzero::history {

struct SeriesChange {
  const history::Series* series = nullptr;
  compare::ChangePoint point;
  compare::Verdict verdict = compare::Verdict::changed;
  const history::SeriesPoint& at() const { return series->points[point.index]; }
  const history::SeriesPoint& previous() const { return series->points[point.index - 1]; }
};

compare::ChangePointSettings change_point_settings(const cli::HistoryOptions& o);
// The series --label, --since, --method, --metric and --use_flagged name (history changes, history site).
history::SeriesFilter series_filter(const cli::HistoryOptions& o);
// What the flags left out of the series, for people: "3 point(s) of 3 run(s) left out: every one of
// their 30 trials was disturbed (host busy, GPU throttled); --use_flagged judges them"; empty when
// nothing was.
std::string left_out_words(const history::SeriesLeftOut& left_out);
// The same for programs: {"points", "runs", "trials", "series_emptied", "why"} (all 0 when nothing was).
nlohmann::json left_out_json(const history::SeriesLeftOut& left_out);
// --since YYYY-MM-DD as epoch seconds (UTC midnight); a UsageError for anything else.
double since_epoch(const std::string& date);
std::vector<SeriesChange> find_series_changes(const std::vector<history::Series>& series,
                                              const compare::ChangePointSettings& settings);

nlohmann::json changes_json(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series,
                            const compare::ChangePointSettings& settings);
std::string changes_text(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series,
                         const compare::ChangePointSettings& settings);
std::string changes_markdown(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series,
                             const compare::ChangePointSettings& settings);
// JUnit: one test case per series; a series whose latest change point is slower fails.
std::string changes_junit(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series);

// run --history: the change points the stored run makes in its own series (its label, system, image
// and cases): those found with it that were not found without it. `series` owns what `changes` point into.
struct RunChanges {
  RunChanges() = default;
  RunChanges(const RunChanges&) = delete;  // a copy's changes would point into the original's series
  RunChanges& operator=(const RunChanges&) = delete;
  RunChanges(RunChanges&&) = default;  // a moved vector keeps its elements where they are
  RunChanges& operator=(RunChanges&&) = default;
  ~RunChanges() = default;
  std::vector<history::Series> series;
  std::vector<SeriesChange> changes;
};
RunChanges changes_made_by(history::Store& store, const results::RunInfo& run,
                           const compare::ChangePointSettings& settings);
std::string run_change_line(const SeriesChange& change);

int history_changes(const cli::HistoryOptions& o, history::Store& store);

}  // namespace perfzero::history
