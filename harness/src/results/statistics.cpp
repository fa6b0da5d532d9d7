#include "results/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace perfzero::results {

std::optional<double> percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return std::nullopt;
  const double rank = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = rank - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

Stats compute_stats(std::vector<double> values) {
  Stats s;
  s.count = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const auto n = static_cast<double>(values.size());
  s.min = values.front();
  s.max = values.back();
  s.median = percentile(values, 50);
  s.p5 = percentile(values, 5);
  s.p25 = percentile(values, 25);
  s.p75 = percentile(values, 75);
  s.p95 = percentile(values, 95);
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  s.mean = mean;
  if (values.size() > 1) {
    double squares = 0;
    for (double v : values) squares += (v - mean) * (v - mean);
    s.stddev = std::sqrt(squares / (n - 1));
    if (mean != 0) s.cv = *s.stddev / std::fabs(mean);
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
