#pragma once
// The statistics of paired measurements (`perfzero ab`, docs/compare.md "perfzero ab"): the Wilcoxon
// signed-rank test and the Hodges-Lehmann estimate with its distribution-free confidence interval.
// Under "no change", with the order inside each pair balanced, every difference is as likely to be
// positive as negative whatever its size, so these hold for any noise: load spikes included.
#include <optional>
#include <vector>

namespace perfzero::compare {

// Two-sided p-value of the signed-rank test that the differences are symmetric about zero. Zeros are
// dropped (Wilcoxon's rule); exact when at most 50 differences remain and no two tie in size, else
// the normal approximation with tie and continuity corrections. 1 when none remain.
double signed_rank_p(const std::vector<double>& differences);

struct PairedInterval {
  double estimate = 0;         // Hodges-Lehmann: the median of the Walsh averages (d_i + d_j) / 2, i <= j
  std::optional<double> low;   // nullopt: too few pairs for this confidence (the interval is unbounded)
  std::optional<double> high;  // likewise
};

// The estimate and its (1 - alpha) interval, from the Walsh averages' order statistics at the
// signed-rank distribution's critical value (exact up to 300 differences, the normal approximation
// beyond). `differences` must not be empty.
PairedInterval hodges_lehmann(const std::vector<double>& differences, double alpha);

// The largest C with P(W+ <= C) <= tail for n differences under the null (W+: the signed-rank sum);
// -1 when even W+ = 0 is more likely than that.
long long signed_rank_critical(int n, double tail);

}  // namespace perfzero::compare
