#pragma once
// The pairs of one case of `perfzero ab`: trial i of the baseline with trial i of the candidate, per
// metric, where both succeeded.
#include <string>
#include <vector>

#include "compare/paired_verdict.hpp"
#include "results/model.hpp"

namespace perfzero::ab {

struct MetricPairs {
  std::string metric;
  std::string unit;
  Direction direction = Direction::unspecified;
  compare::PairedSeries series;
  // Set when the trials did not report one metric alike (its unit or its direction changed between
  // trials or sides): its values are not one quantity, and it is not judged.
  std::string inconsistency;
};

// Every metric both sides reported, the trial's wall time first and then its process tree's CPU time
// (as `compare` rows them), in the baseline's order. The candidate's direction wins, as in `compare`.
std::vector<MetricPairs> collect_pairs(const results::Case& baseline, const results::Case& candidate);

// The metrics `ab` waits for and gates on: those --metrics finds, or by default the verdict policy's
// (compare/gated_metrics.hpp) as `compare` gates them, the tree's CPU time where a side kept it busy.
bool is_gated(const std::string& pattern, const MetricPairs& m, const std::vector<MetricPairs>& all);

}  // namespace perfzero::ab
