#pragma once
// Pairs two runs' cases and metrics and judges each pair (docs/compare.md).
#include <optional>
#include <string>
#include <vector>

#include "compare/comparison.hpp"
#include "compare/gated_metrics.hpp"
#include "results/model.hpp"

namespace perfzero::compare {

struct RunLabel {
  std::string source;  // the path (or history query) it came from
  std::string execution_id;
  std::string execution_label;
  bool partial = false;           // the run never finished (results/reader.hpp): read as it stood
  int foreign_journal_lines = 0;  // journal lines its harness did not write, left out
};

struct RunComparison {
  RunLabel baseline;
  RunLabel candidate;
  Settings settings;
  std::optional<double> z_threshold;   // set when the baseline is a history (compare/history_compare.hpp)
  std::vector<MetricComparison> rows;  // baseline's case order, then cases only in the candidate
  std::string design;                  // `ab`: how the pairs were run and judged, in a sentence
  std::string confounding;             // runs made at different times: the warning (compare/confounding.hpp)

  int count(Verdict v) const;
  // A gated row is slower: the exit status is 1.
  bool regression() const;
};

// The succeeded, non-warm-up trials' values of every metric of one case, in first-reported order,
// wall_time first, each with whether its trial was disturbed (results/flags.hpp). Used by the run
// comparison, `ab` and the history.
struct CaseValues {
  std::string case_name;
  struct Series {
    std::string metric;
    std::string unit;
    Direction direction = Direction::unspecified;
    std::vector<double> values;
    std::vector<bool> disturbed;  // one per value
  };
  std::vector<Series> series;
  results::FlagCounts flags;  // the disturbances of its succeeded trials
};
std::vector<CaseValues> collect_values(const results::Run& run);

// One side of a row from a series: the values judged (undisturbed ones only, unless use_flagged)
// and the counts behind them.
Side side_of(const CaseValues& c, const CaseValues::Series& s, bool use_flagged);

RunComparison compare_runs(const results::Run& baseline, const results::Run& candidate, const Settings& settings);

}  // namespace perfzero::compare
