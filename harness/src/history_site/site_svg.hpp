#pragma once
// The site's two pictures, as inline SVG: a series' sparkline for the index, and its chart (every
// trial a dot, the run medians a line, the change points marked with their commits).
#include <string>
#include <vector>

#include "history_site/site_model.hpp"

namespace perfzero::history_site {

// One run on a chart: its median and its trials' values.
struct ChartRun {
  double median = 0;
  std::vector<double> trials;     // undisturbed
  std::vector<double> disturbed;  // left out of the median, drawn hollow
  std::string commit;
  std::string date;  // YYYY-MM-DD
};

// The last points of a series (oldest first), with the change points among them by position.
std::string sparkline(const std::vector<double>& values, const std::vector<std::size_t>& change_positions);

// `changes`: (position in `runs`, label) pairs; `unit` labels the value axis.
std::string series_chart(const std::vector<ChartRun>& runs,
                         const std::vector<std::pair<std::size_t, std::string>>& changes, const std::string& unit);

}  // namespace perfzero::history_site
