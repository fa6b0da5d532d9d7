#include "results/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>

namespace perfzero::results {

std::optional<double> percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return std::nullopt;
  const double rank = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = rank - static_cast<double>(below);
  const double lo = sorted[below];
  const double hi = sorted[above];
  if (fraction == 0 || lo == hi) return lo;
  // hi - lo overflows for neighbours of opposite sign near the double's limit; the weighted form
  // cannot, and the clamp keeps rounding from putting a percentile outside its neighbours.
  const double span = hi - lo;
  const double value = std::isfinite(span) ? lo + fraction * span : lo * (1 - fraction) + hi * fraction;
  return std::clamp(value, lo, hi);
}

namespace {

// Mean and sample standard deviation of values scaled by a power of two, so that neither the sum nor
// the squares overflow where the plain sums would; the scale is exact, so it costs no digit.
std::pair<double, double> scaled_moments(const std::vector<double>& values) {
  const double largest = std::max(std::fabs(values.front()), std::fabs(values.back()));
  const int exponent = std::ilogb(largest) + 1;
  const auto n = static_cast<double>(values.size());
  double sum = 0;
  for (double v : values) sum += std::ldexp(v, -exponent);
  const double mean = sum / n;
  double squares = 0;
  for (double v : values) {
    const double d = std::ldexp(v, -exponent) - mean;
    squares += d * d;
  }
  const double stddev = values.size() > 1 ? std::sqrt(squares / (n - 1)) : 0;
  return {std::ldexp(mean, exponent), std::ldexp(stddev, exponent)};
}

// One rule for every output: a statistic that is not a finite number is absent (JSON null, an empty
// CSV cell, '-' in Markdown), never "inf" in one file and null in another.
std::optional<double> finite(double v) { return std::isfinite(v) ? std::optional(v) : std::nullopt; }

}  // namespace

Stats compute_stats(std::vector<double> values) {
  Stats s;
  s.count = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const auto n = static_cast<double>(values.size());
  s.min = finite(values.front());
  s.max = finite(values.back());
  for (auto [field, q] : {std::pair{&s.median, 50.0}, {&s.p5, 5.0}, {&s.p25, 25.0}, {&s.p75, 75.0}, {&s.p95, 95.0}}) {
    *field = finite(*percentile(values, q));
  }
  double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  double stddev = 0;
  if (values.size() > 1) {
    double squares = 0;
    for (double v : values) squares += (v - mean) * (v - mean);
    stddev = std::sqrt(squares / (n - 1));
  }
  if (s.min && s.max && !(std::isfinite(mean) && std::isfinite(stddev))) {
    std::tie(mean, stddev) = scaled_moments(values);
  }
  s.mean = finite(mean);
  if (values.size() > 1) {
    s.stddev = finite(stddev);
    if (s.stddev && s.mean && *s.mean != 0) s.cv = finite(*s.stddev / std::fabs(*s.mean));
  }
  return s;
}

nlohmann::json to_json(const Stats& s) {
  auto value = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  return {{"count", s.count},    {"median", value(s.median)}, {"mean", value(s.mean)}, {"stddev", value(s.stddev)},
          {"min", value(s.min)}, {"max", value(s.max)},       {"cv", value(s.cv)},     {"p5", value(s.p5)},
          {"p25", value(s.p25)}, {"p75", value(s.p75)},       {"p95", value(s.p95)}};
}

CaseStats case_stats(const Case& c) {
  CaseStats out;
  std::vector<double> walls;
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::string, std::vector<double>>> values;
  for (const auto& t : c.trials) {
    if (!t.flags.empty()) ++out.trials_flagged;
    if (disturbed(t)) ++out.trials_disturbed;
    count_disturbances(t, out.disturbances);
    if (t.outcome != Outcome::succeeded) continue;
    ++out.trials_succeeded;
    walls.push_back(t.wall_time);
    for (const auto& m : t.metrics) {
      auto [slot, inserted] = values.try_emplace(m.name);
      if (inserted) order.push_back(m.name);
      slot->second.first = m.unit;
      slot->second.second.push_back(m.value);
    }
  }
  out.wall_time = compute_stats(std::move(walls));
  out.metrics.reserve(order.size());
  for (const auto& name : order) {
    auto& [unit, list] = values[name];
    out.metrics.push_back({name, unit, compute_stats(std::move(list))});
  }
  return out;
}

RunDisturbances run_disturbances(const Run& run) {
  RunDisturbances out;
  for (const auto& c : run.cases) {
    for (const auto& t : c.trials) {
      ++out.trials;
      if (disturbed(t)) ++out.disturbed;
      count_disturbances(t, out.flags);
    }
  }
  return out;
}

std::string describe(const RunDisturbances& d) {
  if (d.disturbed == 0) return "";
  std::string which;
  for (const auto& [flag, n] : d.flags) {
    if (!which.empty()) which += ", ";
    which += flag_words(flag) + " " + std::to_string(n);
  }
  return std::to_string(d.disturbed) + " of " + std::to_string(d.trials) + " trials disturbed (" + which + ")";
}

std::optional<double> metric_median(const Run& run, const std::string& case_name, const std::string& metric) {
  const Case* c = run.find_case(case_name);
  if (c == nullptr) return std::nullopt;
  std::vector<double> values;
  for (const auto& t : c->trials) {
    if (t.outcome != Outcome::succeeded) continue;
    for (const auto& m : t.metrics) {
      if (m.name == metric) values.push_back(m.value);
    }
  }
  std::sort(values.begin(), values.end());
  return percentile(values, 50);
}

}  // namespace perfzero::results
