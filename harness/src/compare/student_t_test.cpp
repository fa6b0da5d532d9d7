#include "compare/student_t_test.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/students_t.hpp>

namespace perfzero::compare {

SampleMoments moments(const double* first, const double* last) {
  SampleMoments m;
  m.n = static_cast<std::size_t>(last - first);
  if (m.n == 0) return m;
  // Two passes: the mean, then squared deviations from it (no cancellation as in sum-of-squares).
  double sum = 0;
  for (const double* p = first; p != last; ++p) sum += *p;
  m.mean = sum / static_cast<double>(m.n);
  if (m.n < 2) return m;
  double squares = 0;
  for (const double* p = first; p != last; ++p) squares += (*p - m.mean) * (*p - m.mean);
  m.variance = squares / static_cast<double>(m.n - 1);
  return m;
}

std::optional<TTestResult> student_t_test(const SampleMoments& a, const SampleMoments& b, double confidence) {
  if (a.n == 0 || b.n == 0 || a.n + b.n < 3) return std::nullopt;
  const auto na = static_cast<double>(a.n);
  const auto nb = static_cast<double>(b.n);
  TTestResult r;
  r.df = na + nb - 2;
  const double pooled = ((na - 1) * a.variance + (nb - 1) * b.variance) / r.df;
  const double se = std::sqrt(pooled * (1 / na + 1 / nb));
  const double diff = b.mean - a.mean;
  if (!(se > 0) || !std::isfinite(se)) {
    r.t = diff == 0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), diff);
    r.p_value = diff == 0 ? 1.0 : 0.0;
    r.diff_low = r.diff_high = diff;
    return r;
  }
  r.t = diff / se;
  const boost::math::students_t dist(r.df);
  r.p_value = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(r.t))));
  const double q = boost::math::quantile(boost::math::complement(dist, (1 - confidence) / 2));
  r.diff_low = diff - q * se;
  r.diff_high = diff + q * se;
  return r;
}

}  // namespace perfzero::compare
