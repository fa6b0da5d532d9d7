#include "compare/sequential.hpp"

#include <algorithm>
#include <cmath>

#include "compare/normal_distribution.hpp"

namespace perfzero::compare {

namespace {

constexpr int kGridPoints = 301;  // per look: the continuation region's density, trapezoid rule
constexpr double kLookGrowth = 1.25;

// The density of the score S(t) (S(t) ~ N(0, t) under the null) on a grid over (-b, b), where it
// has not yet crossed an earlier boundary.
struct Density {
  std::vector<double> grid;
  std::vector<double> f;
  double step() const { return grid.size() > 1 ? grid[1] - grid[0] : 0.0; }
  double weight(std::size_t i) const { return (i == 0 || i + 1 == grid.size() ? 0.5 : 1.0) * step(); }
};

Density initial(double t, double b) {
  Density d;
  d.grid.resize(kGridPoints);
  d.f.resize(kGridPoints);
  for (int i = 0; i < kGridPoints; ++i) {
    const double s = -b + 2.0 * b * i / (kGridPoints - 1);
    d.grid[static_cast<std::size_t>(i)] = s;
    d.f[static_cast<std::size_t>(i)] = normal_density(s / std::sqrt(t)) / std::sqrt(t);
  }
  return d;
}

// The chance of crossing +-b at the next look, an increment of variance `dt` later.
double crossing(const Density& d, double dt, double b) {
  const double sd = std::sqrt(dt);
  double total = 0;
  for (std::size_t i = 0; i < d.grid.size(); ++i) {
    const double u = d.grid[i];
    total += d.weight(i) * d.f[i] * (normal_cdf((-b - u) / sd) + normal_upper((b - u) / sd));
  }
  return total;
}

Density advance(const Density& d, double dt, double b) {
  const double sd = std::sqrt(dt);
  Density next;
  next.grid.resize(kGridPoints);
  next.f.resize(kGridPoints);
  for (int i = 0; i < kGridPoints; ++i) {
    const double s = -b + 2.0 * b * i / (kGridPoints - 1);
    double value = 0;
    for (std::size_t j = 0; j < d.grid.size(); ++j)
      value += d.weight(j) * d.f[j] * normal_density((s - d.grid[j]) / sd) / sd;
    next.grid[static_cast<std::size_t>(i)] = s;
    next.f[static_cast<std::size_t>(i)] = value;
  }
  return next;
}

double nominal(double c) { return 2.0 * normal_upper(c); }

}  // namespace

double alpha_spent(double t, double alpha) {
  return alpha * std::log(1.0 + (std::numbers::e - 1.0) * std::clamp(t, 0.0, 1.0));
}

std::vector<double> spending_boundaries(const std::vector<double>& t, const std::vector<double>& increments) {
  std::vector<double> c;
  Density density;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double share = std::max(increments[k], 1e-15);
    if (k == 0) {
      c.push_back(normal_upper_quantile(share / 2.0));
      density = initial(t[0], c.back() * std::sqrt(t[0]));
      continue;
    }
    const double dt = t[k] - t[k - 1];
    // Bisection on the score boundary b = c sqrt(t): crossing() falls as b grows.
    double low = 0;
    double high = 12.0 * std::sqrt(t[k]);
    for (int i = 0; i < 80; ++i) {
      const double mid = (low + high) / 2.0;
      (crossing(density, dt, mid) > share ? low : high) = mid;
    }
    c.push_back(high / std::sqrt(t[k]));
    if (k + 1 < t.size()) density = advance(density, dt, high);
  }
  return c;
}

LookPlan plan_looks(int max_pairs, double alpha, int first_look) {
  LookPlan plan;
  plan.max_pairs = std::max(1, max_pairs);
  plan.alpha = alpha;
  for (int n = std::min(first_look, plan.max_pairs); n < plan.max_pairs;) {
    plan.pairs.push_back(n);
    n = std::max(n + 1, static_cast<int>(std::lround(n * kLookGrowth)));
  }
  plan.pairs.push_back(plan.max_pairs);
  std::vector<double> t;
  std::vector<double> increments;
  double before = 0;
  for (const int n : plan.pairs) {
    t.push_back(static_cast<double>(n) / plan.max_pairs);
    plan.spent.push_back(alpha_spent(t.back(), alpha));
    increments.push_back(plan.spent.back() - before);
    before = plan.spent.back();
  }
  plan.boundary = spending_boundaries(t, increments);
  for (const double c : plan.boundary) plan.nominal_alpha.push_back(nominal(c));
  return plan;
}

double last_look_alpha(const LookPlan& plan, std::size_t done, int pairs) {
  std::vector<double> t;
  std::vector<double> increments;
  double before = 0;
  for (std::size_t k = 0; k < done && k < plan.pairs.size(); ++k) {
    if (plan.pairs[k] >= pairs) break;
    t.push_back(static_cast<double>(plan.pairs[k]) / plan.max_pairs);
    increments.push_back(plan.spent[k] - before);
    before = plan.spent[k];
  }
  t.push_back(static_cast<double>(pairs) / plan.max_pairs);
  increments.push_back(plan.alpha - before);
  return nominal(spending_boundaries(t, increments).back());
}

}  // namespace perfzero::compare
