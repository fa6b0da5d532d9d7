#pragma once
// The seeded percentile bootstrap of a statistic of two medians, shared by `perfzero compare` (the
// change in median) and `perfzero report` (the ratio of medians behind "fastest", "cheapest" and
// speedups), so that both quote intervals computed the same way.
#include <cstdint>
#include <optional>
#include <vector>

namespace perfzero::results {

struct BootstrapInterval {
  double low = 0;
  double high = 0;
};

// statistic(median of a resampled baseline, median of a resampled candidate).
using MedianStatistic = double (*)(double baseline_median, double candidate_median);

// The `confidence` percentile-bootstrap interval of `statistic` over `resamples` resamplings of
// each side (with replacement, the baseline drawn before the candidate in each), from a
// std::mt19937_64 seeded with `seed` and indexes rng() % n: the same inputs give the same interval
// on every machine. nullopt when a side is empty, a value is NaN, or a resampled baseline median
// is 0 (no ratio).
std::optional<BootstrapInterval> bootstrap_medians(const std::vector<double>& baseline,
                                                   const std::vector<double>& candidate, int resamples,
                                                   std::uint64_t seed, double confidence, MedianStatistic statistic);

// median(candidate) / median(baseline): the statistic of a speedup.
double median_ratio(double baseline_median, double candidate_median);

}  // namespace perfzero::results
