#include "perfzero/repetition_series.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "noise.hpp"

namespace perfzero {

std::string_view to_string(StopReason reason) {
  switch (reason) {
    case StopReason::min_repetitions_and_time:
      return "min_repetitions_and_time";
    case StopReason::noise_target:
      return "noise_target";
    case StopReason::time_cap:
      return "time_cap";
    case StopReason::max_repetitions:
      return "max_repetitions";
  }
  return "unknown";
}

namespace {

void require_values(const RepetitionSeries& series) {
  if (series.values.empty()) {
    throw std::logic_error(fmt::format("repetition series '{}' has no values to summarize", series.name));
  }
}

// Two-sided 95 % quantile of Student's t with `df` degrees of freedom: exact for df <= 30 (a table),
// a Cornish-Fisher expansion beyond (within 1e-4 there). Few samples must not look precise.
double t_quantile_975(std::size_t df) {
  static constexpr std::array<double, 30> kTable{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df >= 1 && df <= kTable.size()) return kTable[df - 1];
  constexpr double z = 1.959964;
  const auto n = static_cast<double>(df);
  return z + (z * z * z + z) / (4 * n) + (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

}  // namespace

double RepetitionSeries::median() const {
  require_values(*this);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t mid = sorted.size() / 2;
  return sorted.size() % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

double RepetitionSeries::mean() const {
  require_values(*this);
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double RepetitionSeries::min() const {
  require_values(*this);
  return *std::min_element(values.begin(), values.end());
}

double RepetitionSeries::max() const {
  require_values(*this);
  return *std::max_element(values.begin(), values.end());
}

double RepetitionSeries::stddev() const {
  const double m = mean();
  if (values.size() < 2) return 0.0;
  double sum = 0;
  for (double v : values) sum += (v - m) * (v - m);
  return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

double RepetitionSeries::relative_noise() const {
  if (values.size() < 2) return std::numeric_limits<double>::infinity();
  return detail::relative_noise(values.size(), mean(), stddev());
}

namespace detail {

double relative_noise(std::size_t count, double mean, double stddev) {
  if (count < 2 || mean == 0.0) return std::numeric_limits<double>::infinity();
  const double half_width = t_quantile_975(count - 1) * stddev / std::sqrt(static_cast<double>(count));
  return half_width / std::fabs(mean);
}

}  // namespace detail

}  // namespace perfzero
