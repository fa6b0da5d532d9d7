#pragma once
// `perfzero compare --history`: a candidate run against the last runs of a label, as Conbench
// judges a step change: the z-score of the candidate's median against the spread of the history's
// per-run medians (docs/history.md).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compare/compare_runs.hpp"

namespace perfzero::compare {

// The history needs this many runs with the metric before a z-score means anything.
inline constexpr std::size_t kMinHistoryRuns = 3;

// Per case and metric, one value per history run: the run's median over its succeeded trials,
// leaving out disturbed ones unless `use_flagged` (runs with none left contribute nothing), newest
// run first. What the history database keeps as series points (history/store.hpp, label_medians).
using HistoryMedians = std::map<std::pair<std::string, std::string>, std::vector<double>>;

// Per case and metric, how many of the history's runs had every trial disturbed (no median left
// without --use_flagged): a metric the history has only such runs of is unreliable, not missing.
using HistoryLeftOut = std::map<std::pair<std::string, std::string>, int>;

// The medians of runs held in memory.
HistoryMedians run_medians(const std::vector<results::Run>& history, bool use_flagged);

// Each row's baseline values are the history's per-run medians; the verdict is slower/faster/changed
// when |z| > z_threshold and the change from the history's median is at least settings.min_change.
RunComparison compare_with_history(const HistoryMedians& history, const results::Run& candidate,
                                   const Settings& settings, double z_threshold, const HistoryLeftOut& left_out = {});

}  // namespace perfzero::compare
