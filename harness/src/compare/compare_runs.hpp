#pragma once
// Pairs two runs' cases and metrics and judges each pair (docs/compare.md).
#include <optional>
#include <string>
#include <vector>

#include "compare/comparison.hpp"
#include "results/model.hpp"

namespace perfzero::compare {

// The trial's own wall time is compared for every case, under this name, lower being better.
inline constexpr const char* kWallTimeRow = "wall_time";

struct RunLabel {
  std::string source;  // the path (or history query) it came from
  std::string execution_id;
  std::string execution_label;
};

struct Report {
  RunLabel baseline;
  RunLabel candidate;
  Settings settings;
  std::optional<double> z_threshold;   // set when the baseline is a history (compare/history_compare.hpp)
  std::vector<MetricComparison> rows;  // baseline's case order, then cases only in the candidate

  int count(Verdict v) const;
  bool regression() const { return count(Verdict::slower) > 0; }
};

// The succeeded, non-warm-up trials' values of every metric of one case, in first-reported order,
// wall_time first. Used by the run comparison and by the history.
struct CaseValues {
  std::string case_name;
  struct Series {
    std::string metric;
    std::string unit;
    Direction direction = Direction::unspecified;
    std::vector<double> values;
  };
  std::vector<Series> series;
};
std::vector<CaseValues> collect_values(const results::Run& run);

Report compare_runs(const results::Run& baseline, const results::Run& candidate, const Settings& settings);

}  // namespace perfzero::compare
