#include "results/auto_trials.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "results/flags.hpp"

namespace perfzero::results {

namespace {

// The main metric as `perfzero report` picks it: the first rate (unit "<work>/s").
std::string main_metric(const Case& c) {
  for (const auto& t : c.trials) {
    for (const auto& m : t.metrics) {
      if (m.unit.size() > 2 && m.unit.ends_with("/s")) return m.name;
    }
  }
  return "wall_time";
}

// P(Binomial(n, 1/2) <= k).
double binomial_half_cdf(int n, int k) {
  double total = 0;
  double term = std::pow(0.5, n);  // C(n, 0) / 2^n
  for (int i = 0; i <= k; ++i) {
    total += term;
    term = term * (n - i) / (i + 1);
  }
  return total;
}

}  // namespace

std::optional<double> median_noise(std::vector<double> values) {
  const int n = static_cast<int>(values.size());
  if (n < 6) return std::nullopt;
  std::sort(values.begin(), values.end());
  // The largest j with P(B <= j - 1) <= 2.5 %: the interval [x_(j), x_(n - j + 1)] covers the
  // median with at least 95 %.
  int j = 0;
  while (binomial_half_cdf(n, j) <= 0.025) ++j;
  if (j == 0) return std::nullopt;
  const double low = values[static_cast<std::size_t>(j - 1)];
  const double high = values[static_cast<std::size_t>(n - j)];
  const double median =
      n % 2 == 1 ? values[static_cast<std::size_t>(n / 2)]
                 : (values[static_cast<std::size_t>(n / 2 - 1)] + values[static_cast<std::size_t>(n / 2)]) / 2;
  if (median == 0) return std::nullopt;
  return (high - low) / 2 / std::fabs(median);
}

AutoState auto_state(const Case& c, const AutoTrials& a) {
  AutoState s;
  s.metric = main_metric(c);
  std::vector<double> values;
  for (const auto& t : c.trials) {
    ++s.run;
    s.seconds += t.harness_seconds;
    if (t.outcome != Outcome::succeeded || disturbed(t)) continue;
    ++s.measured;
    if (s.metric == "wall_time") {
      values.push_back(t.wall_time);
      continue;
    }
    for (const auto& m : t.metrics) {
      if (m.name == s.metric) values.push_back(m.value);
    }
  }
  s.noise = median_noise(values);
  const std::string noise = s.noise ? fmt::format("{:.2f}%", *s.noise * 100) : "not measurable";
  if (s.measured >= a.min_trials && s.seconds >= a.min_seconds && s.noise && *s.noise <= a.max_noise) {
    s.done = true;
    s.reason =
        fmt::format("noise {} <= {:.2f}% of the median {} after {} trials", noise, a.max_noise * 100, s.metric, s.run);
  } else if (s.run >= a.max_trials) {
    s.done = true;
    s.reason = fmt::format("max_trials {} reached; noise {}", a.max_trials, noise);
  } else if (s.seconds >= a.max_seconds) {
    s.done = true;
    s.reason = fmt::format("max_time {:g} s reached after {} trials; noise {}", a.max_seconds, s.run, noise);
  }
  return s;
}

}  // namespace perfzero::results
