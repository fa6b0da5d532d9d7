#pragma once
// The report's pictures as inline SVG (no script, no external file): a method x configuration
// heatmap, bars with every trial per method, and a cost vs time scatter with its Pareto front.
#include <string>

#include "report/report_model.hpp"

namespace perfzero::report::svg {

std::string heatmap(const Report& report);
std::string bars(const MethodRow& row, const std::vector<Configuration>& configs);
// Empty when fewer than one priced configuration ran the method successfully.
std::string cost_time_scatter(const MethodRow& row, const std::vector<Configuration>& configs);

// The speed a cell is ranked by, relative to the row's fastest (1 = fastest); nullopt when none.
std::optional<double> relative_speed(const MethodRow& row, const Cell& cell);

}  // namespace perfzero::report::svg
