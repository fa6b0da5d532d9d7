#pragma once
// A suite's "ours against theirs" comparisons, evaluated on a run: the ratio of two medians.
#include <optional>
#include <vector>

#include "results/model.hpp"

namespace perfzero::results {

struct ComparisonResult {
  const ComparisonSpec* spec = nullptr;
  std::optional<double> ours;    // median of our metric
  std::optional<double> theirs;  // median of theirs
  std::optional<double> ratio;   // ours / theirs
  std::optional<bool> goal_met;  // when the spec has a goal and the ratio is known
};

std::vector<ComparisonResult> evaluate_comparisons(const Run& run);

}  // namespace perfzero::results
