#include "compare/significance.hpp"

#include <algorithm>
#include <cmath>

#include "compare/normal_distribution.hpp"
#include "results/bootstrap.hpp"

namespace perfzero::compare {

namespace {

struct Ranked {
  double rank_sum_a = 0;
  double tie_term = 0;  // sum over groups of tied values of t^3 - t
};

// Mid-ranks of the pooled samples (ties share the mean of their ranks).
Ranked rank(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<std::pair<double, bool>> pooled;  // value, from a
  pooled.reserve(a.size() + b.size());
  for (double v : a) pooled.emplace_back(v, true);
  for (double v : b) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  Ranked out;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    const auto t = static_cast<double>(j - i);
    out.tie_term += t * t * t - t;
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].second) out.rank_sum_a += mid_rank;
    }
    i = j;
  }
  return out;
}

// Number of arrangements of m and n values with each U = 0..m*n: the coefficients of the Gaussian
// binomial [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i). m is the smaller size.
std::vector<double> u_counts(std::size_t m, std::size_t n) {
  std::vector<double> poly(m * n + 1, 0.0);
  poly[0] = 1;
  for (std::size_t i = 1; i <= m; ++i) {
    for (std::size_t k = poly.size(); k-- > n + i;) poly[k] -= poly[k - (n + i)];  // times (1 - q^(n+i))
    for (std::size_t k = i; k < poly.size(); ++k) poly[k] += poly[k - i];          // over (1 - q^i)
  }
  return poly;
}

double exact_p(double u_big, std::size_t n1, std::size_t n2) {
  const auto counts = u_counts(std::min(n1, n2), std::max(n1, n2));
  double total = 0;
  double at_least = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    total += counts[k];
    if (static_cast<double>(k) >= u_big - 1e-9) at_least += counts[k];
  }
  return std::min(1.0, 2.0 * at_least / total);
}

double asymptotic_p(double u_big, std::size_t n1, std::size_t n2, double tie_term) {
  const auto a = static_cast<double>(n1);
  const auto b = static_cast<double>(n2);
  const double n = a + b;
  const double variance = a * b / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
  if (variance <= 0) return 1.0;  // every value tied: nothing tells the samples apart
  const double z = (u_big - a * b / 2.0 - 0.5) / std::sqrt(variance);
  return std::min(1.0, 2.0 * normal_upper(z));
}

}  // namespace

MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  const Ranked r = rank(a, b);
  const auto n1 = static_cast<double>(a.size());
  const auto n2 = static_cast<double>(b.size());
  MannWhitney out;
  out.u = r.rank_sum_a - n1 * (n1 + 1.0) / 2.0;
  const double u_big = std::max(out.u, n1 * n2 - out.u);
  out.exact = std::min(a.size(), b.size()) <= 8 && r.tie_term == 0;
  out.p_value = out.exact ? exact_p(u_big, a.size(), b.size()) : asymptotic_p(u_big, a.size(), b.size(), r.tie_term);
  return out;
}

double smallest_attainable_p(std::size_t n1, std::size_t n2) {
  if (n1 == 0 || n2 == 0) return 1.0;
  std::vector<double> a(n1);
  std::vector<double> b(n2);
  for (std::size_t i = 0; i < n1; ++i) a[i] = static_cast<double>(i);
  for (std::size_t i = 0; i < n2; ++i) b[i] = static_cast<double>(n1 + i);
  return mann_whitney_u(a, b).p_value;
}

std::optional<Interval> bootstrap_median_change(const std::vector<double>& baseline,
                                                const std::vector<double>& candidate, int resamples, std::uint64_t seed,
                                                double confidence) {
  const auto change = [](double base_median, double cand_median) { return cand_median / base_median - 1.0; };
  const auto interval = results::bootstrap_medians(baseline, candidate, resamples, seed, confidence, change);
  if (!interval) return std::nullopt;
  return Interval{interval->low, interval->high};
}

}  // namespace perfzero::compare
