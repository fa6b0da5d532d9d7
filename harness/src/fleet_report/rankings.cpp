#include "fleet_report/rankings.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "fleet_report/run_noise.hpp"
#include "results/bootstrap.hpp"

namespace perfzero::fleet_report {

namespace {

const std::vector<double>& sample_of(const MethodRow& row, const Cell& cell) {
  return row.metric ? cell.metric_values : cell.wall_times;
}

// A bound under every resampled speed(a) / speed(b): when each trial of `a` is faster than each
// trial of `b`, no resampling can bring the ratio below min(a) / max(b). Lets a ranking skip the
// bootstrap against contenders far behind the runner-up.
double separation(const MethodRow& row, const Cell& a, const Cell& b) {
  const double apart = row.metric ? *a.metric.min / *b.metric.max : *b.wall.min / *a.wall.max;
  // A side measured in one run is compared beyond the between-run noise (speed_ratio).
  return a.runs < 2 || b.runs < 2 ? apart / (1 + row.run_noise.fraction) : apart;
}

std::optional<double> cost_of(const MethodRow& row, const Cell& cell) {
  const auto cost = row.metric ? cell.cost_per_unit : cell.cost_per_run;
  if (!cost || *cost <= 0 || !speed_of(row, cell)) return std::nullopt;
  return cost;
}

using Score = std::function<std::optional<double>(std::size_t)>;  // higher is better
using Against = std::function<Ratio(std::size_t leader, std::size_t other)>;
using Bound = std::function<double(std::size_t leader, std::size_t other)>;  // see separation()

// The leader by score, against the others from the closest: the runner-up's ratio is always
// computed (it is shown); past it, a contender left behind by min_change and by every trial needs
// no bootstrap. The first tie ends the search: the leader is not named.
Ranking rank_by(std::size_t cells, const Score& score, const Against& against, const Bound& bound,
                const RankSettings& settings) {
  Ranking out;
  std::vector<std::pair<double, std::size_t>> scored;
  for (std::size_t i = 0; i < cells; ++i) {
    if (const auto s = score(i)) scored.emplace_back(*s, i);
  }
  out.contenders = scored.size();
  if (scored.empty()) return out;
  std::stable_sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  const std::size_t leader = scored.front().second;
  out.leader = leader;
  out.decided = scored.size() > 1;  // one contender is no ranking: the others failed, were left out or did not run
  for (std::size_t k = 1; k < scored.size(); ++k) {
    const std::size_t other = scored[k].second;
    if (k > 1 && scored.front().first / scored[k].first >= 1 + settings.min_change && bound(leader, other) > 1) {
      continue;
    }
    const Ratio r = against(leader, other);
    if (k == 1 || r.tie) {
      out.against = other;
      out.ratio = r;
    }
    if (r.tie) {
      out.decided = false;
      break;
    }
  }
  return out;
}

}  // namespace

std::optional<double> speed_of(const MethodRow& row, const Cell& cell) {
  if (!cell.ok()) return std::nullopt;
  if (row.metric) {
    if (cell.metric.median && *cell.metric.median > 0) return cell.metric.median;
    return std::nullopt;
  }
  if (cell.wall.median && *cell.wall.median > 0) return 1.0 / *cell.wall.median;
  return std::nullopt;
}

std::optional<double> relative_speed(const MethodRow& row, const Cell& cell) {
  const auto s = speed_of(row, cell);
  if (!s || !row.speed.leader) return std::nullopt;
  const auto best = speed_of(row, row.cells[*row.speed.leader]);
  if (!best || *best <= 0) return std::nullopt;
  return *s / *best;
}

Ratio speed_ratio(const MethodRow& row, std::size_t a, std::size_t b, double scale, const RankSettings& settings) {
  const Cell& ca = row.cells[a];
  const Cell& cb = row.cells[b];
  Ratio r;
  r.value = scale * *speed_of(row, ca) / *speed_of(row, cb);
  const auto& va = sample_of(row, ca);
  const auto& vb = sample_of(row, cb);
  if (va.size() >= settings.min_trials && vb.size() >= settings.min_trials) {
    // A rate: median(a) / median(b). A wall time: speed is its inverse, so median(b) / median(a).
    const auto interval = row.metric ? results::bootstrap_medians(vb, va, settings.resamples, settings.seed,
                                                                  settings.confidence, results::median_ratio)
                                     : results::bootstrap_medians(va, vb, settings.resamples, settings.seed,
                                                                  settings.confidence, results::median_ratio);
    if (interval) {
      r.low = scale * interval->low;
      r.high = scale * interval->high;
    }
  }
  const bool excludes_one = r.low && r.high && (*r.low > 1 || *r.high < 1);
  r.tie = !excludes_one || std::fabs(r.value - 1) < settings.min_change;
  // Trials of one run cannot tell the machine from the moment it ran.
  if (ca.runs < 2 || cb.runs < 2) widen_by_run_noise(r, row.run_noise.fraction, settings.min_change);
  return r;
}

void rank_method(MethodRow& row, const std::vector<Configuration>& configs, const std::string& baseline,
                 const RankSettings& settings) {
  const std::size_t n = row.cells.size();
  row.speed = rank_by(
      n, [&](std::size_t i) { return speed_of(row, row.cells[i]); },
      [&](std::size_t l, std::size_t o) { return speed_ratio(row, l, o, 1.0, settings); },
      [&](std::size_t l, std::size_t o) { return separation(row, row.cells[l], row.cells[o]); }, settings);
  // cost(other) / cost(leader) = price(other) / price(leader) x speed(leader) / speed(other): the
  // prices are exact, so the interval is the speeds' one scaled by the price ratio.
  const auto price_ratio = [&](std::size_t l, std::size_t o) {
    return *configs[o].pricing.usd_per_hour / *configs[l].pricing.usd_per_hour;
  };
  row.cost = rank_by(
      n,
      [&](std::size_t i) -> std::optional<double> {
        const auto cost = cost_of(row, row.cells[i]);
        if (!cost || !configs[i].pricing.usd_per_hour) return std::nullopt;
        return 1.0 / *cost;
      },
      [&](std::size_t l, std::size_t o) { return speed_ratio(row, l, o, price_ratio(l, o), settings); },
      [&](std::size_t l, std::size_t o) { return price_ratio(l, o) * separation(row, row.cells[l], row.cells[o]); },
      settings);
  row.fastest = row.speed.decided ? row.speed.leader : std::nullopt;
  row.cheapest = row.cost.decided ? row.cost.leader : std::nullopt;

  std::optional<std::size_t> base;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    if (configs[i].key == baseline && speed_of(row, row.cells[i])) base = i;
  }
  if (!base) return;
  for (std::size_t i = 0; i < n; ++i) {
    if (!speed_of(row, row.cells[i])) continue;
    if (i == *base) {
      row.cells[i].speedup = Ratio{1.0, std::nullopt, std::nullopt, false, 0};  // the reference itself
    } else {
      row.cells[i].speedup = speed_ratio(row, i, *base, 1.0, settings);
    }
  }
}

}  // namespace perfzero::fleet_report
