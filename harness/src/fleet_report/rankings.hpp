#pragma once
// Fastest, cheapest and speedups, told from noise: each ratio between two configurations carries a
// seeded bootstrap interval from their trials (results/bootstrap.hpp), and a configuration is named
// only when its interval against every other contender excludes 1 and the change is at least
// --min_change. Otherwise the report says "tie", with the interval.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fleet_report/report_model.hpp"

namespace perfzero::fleet_report {

// The speed a cell is ranked by: the main metric's median, or 1 / the median wall time; nullopt
// when not every trial succeeded or there is no positive figure.
std::optional<double> speed_of(const MethodRow& row, const Cell& cell);

// The cell's speed over the leader's (1 for the leader); nullopt when either has none.
std::optional<double> relative_speed(const MethodRow& row, const Cell& cell);

// speed(a) / speed(b) times `scale` (a price ratio for costs), with the interval of the ratio of
// their medians when both have settings.min_trials values.
Ratio speed_ratio(const MethodRow& row, std::size_t a, std::size_t b, double scale, const RankSettings& settings);

// Fills row.speed, row.cost, row.fastest, row.cheapest and every cell's speedup against
// `baseline` (a configuration key; empty: none). Costs and speeds must already be in the cells.
void rank_method(MethodRow& row, const std::vector<Configuration>& configs, const std::string& baseline,
                 const RankSettings& settings);

}  // namespace perfzero::fleet_report
