#pragma once
// A method's main metric on the site's index (docs/history.md, "The history site"): the one plotted
// for each of its configurations, the others a click away. The history does not keep a suite's
// main_metric (run records carry it since schema 1.11.0; the store has no column for it), so it is
// chosen from the metrics the method records, and the page says by which rule.
#include <string>
#include <vector>

#include "history/store.hpp"

namespace perfzero::history_site {

struct MainMetric {
  std::string metric;  // empty: the method has no series
  std::string why;     // for people: "its first rate, as perfzero report picks", ...
};

// `series`: the method's series, in the order the store gives them. The first rate (a unit
// "<work>/s", as `perfzero report` and --trials auto pick), else the first metric with a direction
// that is neither a counter nor wall_time, else wall_time, else the first metric that is not a
// counter, else the first.
MainMetric main_metric(const std::vector<const history::Series*>& series);

}  // namespace perfzero::history_site
