#pragma once
// What the history site is made of (docs/history.md, "The history site"): the series of the results
// history with their change points, and the settings of one site.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "compare/change_points.hpp"
#include "compare/comparison.hpp"
#include "history/store.hpp"
#include "pricing/price_catalog.hpp"

namespace perfzero::history_site {

// A change point of a series, as `history changes` finds it.
struct Change {
  std::size_t index = 0;   // the series point where the step begins
  std::size_t before = 0;  // points in the segment before it, and after it
  std::size_t after = 0;
  double change = 0;  // mean after / mean before - 1
  double ci_low = 0;
  double ci_high = 0;
  double p_value = 1;
  compare::Verdict verdict = compare::Verdict::changed;
};

struct SeriesWithChanges {
  history::Series series;
  std::vector<Change> changes;  // oldest first
};

struct SiteOptions {
  std::string out;                             // the folder written
  std::string source;                          // the database, as the pages name it
  std::string generated;                       // when, as the pages say it
  std::size_t last = 200;                      // each configuration's newest runs drawn, each with a page
  std::optional<double> cost_since;            // runs from then on get the cost view; none: no cost view
  const pricing::Catalog* catalog = nullptr;   // nullptr: every shape unpriced
  std::string catalog_file;                    // where the catalog came from, for the pages
  std::string today;                           // YYYY-MM-DD, for the age of prices
  compare::ChangePointSettings change_points;  // what found the changes, for the pages to say
  std::string left_out;                        // what the flags left out of the series (history::left_out_words)
};

}  // namespace perfzero::history_site
