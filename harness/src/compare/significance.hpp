#pragma once
// The statistics behind `perfzero compare`: the Mann-Whitney U test (as scipy.stats.mannwhitneyu
// computes it) and a seeded bootstrap confidence interval of the change in median. Kept apart from
// the verdicts and the formatting so that each is tested against known values on its own.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace perfzero::compare {

struct MannWhitney {
  double u = 0;        // U of the first sample
  double p_value = 1;  // two-sided
  bool exact = false;  // the exact distribution (small samples, no ties) rather than the normal one
};

// Two-sided test that the two samples come from the same distribution. As scipy's method='auto':
// exact when a sample has at most 8 values and there are no ties, else the normal approximation
// with tie and continuity corrections. Both samples must be non-empty.
MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// The smallest two-sided p-value samples of these sizes can give (perfectly separated): when it is
// not below the significance level, no outcome of the test could say "different".
double smallest_attainable_p(std::size_t n1, std::size_t n2);

struct Interval {
  double low = 0;
  double high = 0;
};

// The 95 % percentile-bootstrap interval of median(candidate) / median(baseline) - 1, from
// `resamples` resamplings of each side with a generator seeded with `seed`: the same inputs give
// the same interval on every machine. nullopt when a resampled baseline median is 0.
std::optional<Interval> bootstrap_median_change(const std::vector<double>& baseline,
                                                const std::vector<double>& candidate, int resamples, std::uint64_t seed,
                                                double confidence = 0.95);

}  // namespace perfzero::compare
