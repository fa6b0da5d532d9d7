#include "results/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "results/statistics.hpp"

namespace perfzero::results {

namespace {

// One side of the bootstrap, sorted once. A resample's median is found from how often each value
// was drawn (counting, O(n)) rather than by copying the resample and partially sorting it: the
// same draws pick the same values, so the median is bit for bit the one a copy would give, at a
// fraction of the cost (a report ranks hundreds of configurations of thousands of trials).
class Resampler {
 public:
  explicit Resampler(const std::vector<double>& values)
      : sorted_(values.size()), rank_(values.size()), counts_(values.size()) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    for (std::size_t position = 0; position < order.size(); ++position) {
      sorted_[position] = values[order[position]];
      rank_[order[position]] = position;
    }
  }

  // Draws n indexes into the values as given (rng() % n: its sequence is fixed by the standard;
  // std::uniform_int_distribution's mapping is not) and returns the median of the values drawn.
  double median_of_resample(std::mt19937_64& rng) {
    const std::size_t n = sorted_.size();
    std::fill(counts_.begin(), counts_.end(), 0U);
    for (std::size_t k = 0; k < n; ++k) ++counts_[rank_[rng() % n]];
    std::size_t below = 0;  // values drawn before sorted_[i]
    std::size_t i = 0;
    const auto value_at = [&](std::size_t position) {  // the resample's position-th smallest value
      while (below + counts_[i] <= position) below += counts_[i++];
      return sorted_[i];
    };
    const std::size_t mid = n / 2;
    if (n % 2 == 1) return value_at(mid);
    const double lower = value_at(mid - 1);
    return (lower + value_at(mid)) / 2.0;
  }

 private:
  std::vector<double> sorted_;
  std::vector<std::size_t> rank_;  // the sorted position of each value as given
  std::vector<std::size_t> counts_;
};

bool has_nan(const std::vector<double>& values) {
  return std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); });
}

}  // namespace

double median_ratio(double baseline_median, double candidate_median) { return candidate_median / baseline_median; }

std::optional<BootstrapInterval> bootstrap_medians(const std::vector<double>& baseline,
                                                   const std::vector<double>& candidate, int resamples,
                                                   std::uint64_t seed, double confidence, MedianStatistic statistic) {
  // NaN has no place in an order: there is no median to resample.
  if (baseline.empty() || candidate.empty() || resamples < 1 || has_nan(baseline) || has_nan(candidate)) {
    return std::nullopt;
  }
  Resampler base(baseline);
  Resampler cand(candidate);
  std::mt19937_64 rng(seed);
  std::vector<double> statistics;
  statistics.reserve(static_cast<std::size_t>(resamples));
  for (int i = 0; i < resamples; ++i) {
    const double base_median = base.median_of_resample(rng);
    const double cand_median = cand.median_of_resample(rng);
    if (base_median == 0) return std::nullopt;
    statistics.push_back(statistic(base_median, cand_median));
  }
  std::sort(statistics.begin(), statistics.end());
  const double tail = (1.0 - confidence) / 2.0 * 100.0;
  return BootstrapInterval{*percentile(statistics, tail), *percentile(statistics, 100.0 - tail)};
}

}  // namespace perfzero::results
