#include "ab/ab_pairs.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "compare/compare_runs.hpp"
#include "compare/gated_metrics.hpp"
#include "results/flags.hpp"

namespace perfzero::ab {

namespace {

const results::Trial* trial_number(const results::Case& c, int number) {
  for (const auto& t : c.trials) {
    if (t.number == number) return &t;
  }
  return nullptr;
}

const results::MetricValue* metric_of(const results::Trial& t, const std::string& name) {
  for (const auto& m : t.metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

// The trial's wall time, or a wall_time metric the method reported itself (which `compare` uses too).
double wall_of(const results::Trial& t) {
  const auto* m = metric_of(t, compare::kWallTimeRow);
  return m != nullptr ? m->value : t.wall_time;
}

MetricPairs& pairs_for(std::vector<MetricPairs>& all, const std::string& metric) {
  for (auto& m : all) {
    if (m.metric == metric) return m;
  }
  all.push_back({metric, "", Direction::unspecified, {}, ""});
  return all.back();
}

void add_pair(MetricPairs& m, double a, double b, const std::vector<std::string>& disturbances) {
  m.series.baseline.push_back(a);
  m.series.candidate.push_back(b);
  m.series.disturbed.push_back(!disturbances.empty());
  for (const auto& flag : disturbances) {
    const auto it =
        std::find_if(m.series.flags.begin(), m.series.flags.end(), [&](const auto& f) { return f.first == flag; });
    if (it == m.series.flags.end()) {
      m.series.flags.emplace_back(flag, 1);
    } else {
      ++it->second;
    }
  }
}

}  // namespace

std::vector<MetricPairs> collect_pairs(const results::Case& baseline, const results::Case& candidate) {
  std::vector<MetricPairs> out;
  out.push_back({compare::kWallTimeRow, "s", Direction::lower_is_better, {}, ""});
  for (const auto& a : baseline.trials) {
    const results::Trial* b = trial_number(candidate, a.number);
    if (a.warmup || b == nullptr || a.outcome != Outcome::succeeded || b->outcome != Outcome::succeeded) continue;
    // A pair is disturbed when either of its trials was: both share the conditions, so it still counts.
    std::vector<std::string> disturbances = results::disturbances(a);
    for (const auto& f : results::disturbances(*b)) {
      if (std::find(disturbances.begin(), disturbances.end(), f) == disturbances.end()) disturbances.push_back(f);
    }
    add_pair(out.front(), wall_of(a), wall_of(*b), disturbances);
    // The tree's CPU time, gated for every method as in `compare`: a pair only where both sides' kernel
    // accounted for it (a lost launcher's trial has none).
    if (const auto ta = compare::tree_cpu_seconds(a), tb = compare::tree_cpu_seconds(*b); ta && tb) {
      auto& cpu = pairs_for(out, compare::kTreeCpuRow);
      cpu.unit = "s";
      cpu.direction = Direction::lower_is_better;
      add_pair(cpu, *ta, *tb, disturbances);
    }
    for (const auto& m : a.metrics) {
      if (m.name == compare::kWallTimeRow || m.name == compare::kTreeCpuRow) continue;
      const auto* other = metric_of(*b, m.name);
      if (other == nullptr) continue;
      auto& pairs = pairs_for(out, m.name);
      const Direction direction = other->direction != Direction::unspecified ? other->direction : m.direction;
      if (pairs.inconsistency.empty()) {
        if (m.unit != other->unit) {
          pairs.inconsistency =
              fmt::format("the baseline reported it in '{}', the candidate in '{}'", m.unit, other->unit);
        } else if (!pairs.series.baseline.empty() && (m.unit != pairs.unit || direction != pairs.direction)) {
          pairs.inconsistency =
              m.unit != pairs.unit
                  ? fmt::format("its unit changed between trials ('{}', then '{}')", pairs.unit, m.unit)
                  : "its direction (lower or higher is better) changed between trials";
        }
      }
      pairs.unit = m.unit;
      pairs.direction = direction;
      add_pair(pairs, m.value, other->value, disturbances);
    }
  }
  return out;
}

bool is_gated(const std::string& pattern, const MetricPairs& m, const std::vector<MetricPairs>& all) {
  if (!compare::is_gated(pattern, m.metric, m.direction)) return false;
  if (m.metric != compare::kTreeCpuRow || !pattern.empty() || all.empty()) return true;
  const MetricPairs& wall = all.front();  // collect_pairs puts the wall time first
  return compare::tree_was_busy(m.series.baseline, wall.series.baseline) ||
         compare::tree_was_busy(m.series.candidate, wall.series.candidate);
}

}  // namespace perfzero::ab
