#pragma once
// The index's picture of a method: its main metric's series, one line per configuration and label,
// over time (runs of different configurations start at different times, so the x axis is the date),
// each change point marked with its commit.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace perfzero::history_site {

struct OverviewLine {
  std::vector<std::pair<double, double>> points;             // (epoch seconds, value), oldest first
  std::vector<std::pair<std::size_t, std::string>> changes;  // (position in points, commit and change)
};

// The colour and dash of line `k` (its legend swatch draws the same).
std::string line_style(std::size_t k);
// A short sample of line `k`, for the legend beside the chart.
std::string line_swatch(std::size_t k);

// `unit` labels the value axis.
std::string overview_chart(const std::vector<OverviewLine>& lines, const std::string& unit);

}  // namespace perfzero::history_site
