// `perfzero report RESULT_DIR... --history DB`: the between-run noise floor read from the results
// history (docs/report.md, "Between-run noise"). Inputs that hold one run per configuration cannot
// show how far runs of one configuration land apart; a history of earlier runs can.
#include "commands/report_history_noise.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "commands/history_database.hpp"
#include "common/errors.hpp"
#include "fleet_report/clusters.hpp"
#include "history/store.hpp"

namespace perfzero::commands {

namespace {

// The steps of each series' last runs only: older runs are other code on other days, and a step
// the code made (a change point) is one step among these, not the noise.
constexpr std::size_t kLastRuns = 21;
constexpr double kQuantile = 0.95;

double quantile_of(std::vector<double> steps) {
  std::sort(steps.begin(), steps.end());
  // Nearest rank: the smallest step at least kQuantile of them do not exceed.
  const auto rank = static_cast<std::size_t>(std::ceil(kQuantile * static_cast<double>(steps.size())));
  return steps[std::max<std::size_t>(rank, 1) - 1];
}

}  // namespace

fleet_report::HistoryNoiseTable history_noise_from(const cli::ReportOptions& options) {
  fleet_report::HistoryNoiseTable out;
  if (options.history_db.empty()) return out;
  std::map<std::pair<std::string, std::string>, std::vector<double>> steps;
  try {
    history::Store store = open_history_for_reading(options.history_db, "report --history");
    history::SeriesFilter filter;
    filter.label = options.label;
    filter.use_flagged = options.use_flagged;  // the history's runs judged as the report judges its inputs
    for (const auto& s : store.series(filter)) {
      const auto key = std::make_pair(fleet_report::method_name_of(s.case_name), s.metric);
      const std::size_t first = s.points.size() > kLastRuns ? s.points.size() - kLastRuns : 0;
      for (std::size_t i = first + 1; i < s.points.size(); ++i) {
        const double before = s.points[i - 1].value;
        const double after = s.points[i].value;
        if (!(before > 0) || !(after > 0) || !std::isfinite(before) || !std::isfinite(after)) continue;
        // As the report's ratios are read: the larger over the smaller, less 1.
        steps[key].push_back(std::max(before, after) / std::min(before, after) - 1);
      }
    }
  } catch (const history::HistoryError& e) {
    throw OutputError(fmt::format("report --history: {}", e.what()));
  }
  for (auto& [key, values] : steps) {
    auto& noise = out[key];
    noise.pairs = values.size();
    noise.fraction = quantile_of(std::move(values));
  }
  return out;
}

}  // namespace perfzero::commands
