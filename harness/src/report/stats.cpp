#include "report/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace perfzero::report {

Stats compute_stats(std::vector<double> values) {
  Stats s;
  s.count = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  s.min = values.front();
  s.max = values.back();
  s.median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(n);
  if (n > 1) {
    double squares = 0;
    for (double v : values) squares += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(squares / static_cast<double>(n - 1));
  }
  s.cv = s.mean != 0 ? s.stddev / std::fabs(s.mean) : 0.0;
  return s;
}

nlohmann::json to_json(const Stats& s) {
  return {{"count", s.count}, {"median", s.median}, {"mean", s.mean}, {"stddev", s.stddev},
          {"min", s.min},     {"max", s.max},       {"cv", s.cv}};
}

}  // namespace perfzero::report
