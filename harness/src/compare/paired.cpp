#include "compare/paired.hpp"

#include <algorithm>
#include <cmath>

#include "compare/normal_distribution.hpp"

namespace perfzero::compare {

namespace {

constexpr int kMaxExactP = 50;
constexpr int kMaxExactCritical = 300;

// P(W+ = k) for k = 0 .. n(n+1)/2: each rank is in the positive set with probability 1/2.
std::vector<double> signed_rank_distribution(int n) {
  const auto top = static_cast<std::size_t>(n) * static_cast<std::size_t>(n + 1) / 2;
  std::vector<double> p(top + 1, 0.0);
  p[0] = 1.0;
  std::size_t reach = 0;
  for (int i = 1; i <= n; ++i) {
    const auto rank = static_cast<std::size_t>(i);
    reach += rank;
    for (std::size_t k = reach; k >= rank; --k) p[k] = (p[k] + p[k - rank]) / 2.0;
    for (std::size_t k = rank; k-- > 0;) p[k] /= 2.0;
  }
  return p;
}

}  // namespace

double signed_rank_p(const std::vector<double>& differences) {
  std::vector<double> d;
  for (double v : differences) {
    if (v != 0 && std::isfinite(v)) d.push_back(v);
  }
  if (d.empty()) return 1.0;
  std::sort(d.begin(), d.end(), [](double a, double b) { return std::fabs(a) < std::fabs(b); });
  const auto n = static_cast<double>(d.size());
  double w_plus = 0;
  double tie_term = 0;
  for (std::size_t i = 0; i < d.size();) {
    std::size_t j = i;
    while (j < d.size() && std::fabs(d[j]) == std::fabs(d[i])) ++j;
    const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    const auto t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    for (std::size_t k = i; k < j; ++k) {
      if (d[k] > 0) w_plus += mid_rank;
    }
    i = j;
  }
  const double mean = n * (n + 1) / 4.0;
  if (d.size() <= static_cast<std::size_t>(kMaxExactP) && tie_term == 0) {
    const auto p = signed_rank_distribution(static_cast<int>(d.size()));
    const auto small = static_cast<std::size_t>(std::llround(std::min(w_plus, 2 * mean - w_plus)));
    double tail = 0;
    for (std::size_t k = 0; k <= small; ++k) tail += p[k];
    return std::min(1.0, 2.0 * tail);
  }
  const double variance = n * (n + 1) * (2 * n + 1) / 24.0 - tie_term / 48.0;
  if (variance <= 0) return 1.0;
  const double z = (std::fabs(w_plus - mean) - 0.5) / std::sqrt(variance);
  return std::min(1.0, 2.0 * normal_upper(std::max(0.0, z)));
}

long long signed_rank_critical(int n, double tail) {
  if (n <= 0) return -1;
  if (n <= kMaxExactCritical) {
    const auto p = signed_rank_distribution(n);
    double cumulative = 0;
    long long c = -1;
    for (std::size_t k = 0; k < p.size(); ++k) {
      cumulative += p[k];
      // A relative slack so that a probability equal to `tail` in exact arithmetic is not lost to rounding.
      if (cumulative > tail * (1 + 1e-12)) break;
      c = static_cast<long long>(k);
    }
    return c;
  }
  const double m = static_cast<double>(n);
  const double mean = m * (m + 1) / 4.0;
  const double sd = std::sqrt(m * (m + 1) * (2 * m + 1) / 24.0);
  return static_cast<long long>(std::floor(mean + normal_quantile(tail) * sd - 0.5));
}

PairedInterval hodges_lehmann(const std::vector<double>& differences, double alpha) {
  const std::size_t n = differences.size();
  std::vector<double> walsh;
  walsh.reserve(n * (n + 1) / 2);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i; j < n; ++j) walsh.push_back((differences[i] + differences[j]) / 2.0);
  }
  std::sort(walsh.begin(), walsh.end());
  PairedInterval out;
  const std::size_t m = walsh.size();
  out.estimate = m % 2 == 1 ? walsh[m / 2] : (walsh[m / 2 - 1] + walsh[m / 2]) / 2.0;
  const long long c = signed_rank_critical(static_cast<int>(n), alpha / 2.0);
  // The interval runs from the (C+1)-th smallest Walsh average to the (C+1)-th largest.
  if (c >= 0 && static_cast<std::size_t>(c) < m - static_cast<std::size_t>(c)) {
    out.low = walsh[static_cast<std::size_t>(c)];
    out.high = walsh[m - 1 - static_cast<std::size_t>(c)];
  }
  return out;
}

}  // namespace perfzero::compare
