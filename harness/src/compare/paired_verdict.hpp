#pragma once
// The verdict of one metric of `perfzero ab` at a look, from its pairs (docs/compare.md, "perfzero ab").
#include <string>
#include <vector>

#include "compare/comparison.hpp"

namespace perfzero::compare {

// One metric's pairs: baseline[i] and candidate[i] ran back to back under the same conditions.
struct PairedSeries {
  std::vector<double> baseline;
  std::vector<double> candidate;
  std::vector<bool> disturbed;  // the pair's baseline or candidate trial was disturbed (results/flags.hpp)
  results::FlagCounts flags;    // which disturbances, on how many pairs
};

// Judges `m` from the pairs with the interval at level 1 - `level_alpha` (the look's nominal level).
// Decided: the interval excludes no change and the estimate is at least min_change (slower, faster
// or changed); or the interval lies within +-min_change (below threshold when it also excludes no
// change, else equivalent). Returns true when decided; otherwise the verdict is unknown on the
// `last` look and stays open (unknown, with the figures so far) before it.
bool judge_pairs(MetricComparison& m, const PairedSeries& pairs, double level_alpha, const Settings& settings,
                 bool last);

}  // namespace perfzero::compare
