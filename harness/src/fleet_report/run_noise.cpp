#include "fleet_report/run_noise.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace perfzero::fleet_report {

namespace {

// The history's noise of the figure the row is ranked by (its main metric, else wall time). Too few
// pairs measure nothing: the floor is then the default, which says so.
const HistoryNoise* history_noise_of(const MethodRow& row, const RankSettings& settings) {
  if (settings.history_noise == nullptr) return nullptr;
  const auto it = settings.history_noise->find({row.name, row.metric ? row.metric->name : "wall_time"});
  if (it == settings.history_noise->end() || it->second.pairs < kMinHistoryPairs) return nullptr;
  return &it->second;
}

}  // namespace

RunNoise run_noise_of(const MethodRow& row, const RankSettings& settings) {
  RunNoise noise;
  double widest = 0;
  for (const Cell& cell : row.cells) {
    if (cell.runs == 1) ++noise.single_run;
    if (cell.run_medians.size() < 2) continue;
    const auto [low, high] = std::minmax_element(cell.run_medians.begin(), cell.run_medians.end());
    if (*low <= 0 || !std::isfinite(*high)) continue;
    widest = std::max(widest, *high / *low - 1);
    ++noise.measured_from;
  }
  if (settings.run_noise) {
    noise.fraction = *settings.run_noise;
    noise.source = "--run_noise";
  } else if (noise.measured_from > 0) {
    noise.fraction = widest;
    noise.source = "measured";
  } else if (const HistoryNoise* h = history_noise_of(row, settings)) {
    noise.fraction = h->fraction;
    noise.source = "history";
    noise.history_pairs = h->pairs;
  } else {
    noise.fraction = settings.default_run_noise;
    noise.source = "default";
  }
  return noise;
}

void widen_by_run_noise(Ratio& r, double noise, double min_change) {
  if (noise <= 0 || !r.low || !r.high) return;
  r.low = *r.low / (1 + noise);
  r.high = *r.high * (1 + noise);
  r.run_noise = noise;
  const bool excludes_one = *r.low > 1 || *r.high < 1;
  r.tie = !excludes_one || std::fabs(r.value - 1) < min_change;
}

std::string run_noise_text(const RunNoise& noise) {
  const std::string percent = fmt::format("{:.3g}% between-run noise", noise.fraction * 100);
  if (noise.source == "--run_noise") return percent + " (--run_noise)";
  if (noise.source == "measured") {
    return fmt::format("{} (measured: the run medians of {} configuration{} run more than once)", percent,
                       noise.measured_from, noise.measured_from == 1 ? "" : "s");
  }
  if (noise.source == "history") {
    return fmt::format("{} (from the history: {} pairs of consecutive runs)", percent, noise.history_pairs);
  }
  return percent + " (default: no configuration ran more than once)";
}

}  // namespace perfzero::fleet_report
