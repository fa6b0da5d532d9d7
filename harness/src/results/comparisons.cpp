#include "results/comparisons.hpp"

#include "results/statistics.hpp"

namespace perfzero::results {

std::vector<ComparisonResult> evaluate_comparisons(const Run& run) {
  std::vector<ComparisonResult> out;
  out.reserve(run.comparisons.size());
  for (const auto& spec : run.comparisons) {
    ComparisonResult r;
    r.spec = &spec;
    r.ours = metric_median(run, spec.ours_case, spec.ours_metric);
    r.theirs = metric_median(run, spec.theirs_case, spec.theirs_metric);
    if (r.ours && r.theirs && *r.theirs != 0) r.ratio = *r.ours / *r.theirs;
    if (spec.goal && r.ratio) r.goal_met = *r.ratio >= *spec.goal;
    out.push_back(r);
  }
  return out;
}

}  // namespace perfzero::results
