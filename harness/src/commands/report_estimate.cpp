// `perfzero report --estimate SUITE --shapes ...`: a planned campaign priced before it is launched
// (docs/report.md, "Estimating a campaign"). The suite is planned as a dry run plans it; durations
// come from the results history that `compare --history` reads.
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "commands/history_database.hpp"
#include "commands/suite_plan_inputs.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "config/plan_builder.hpp"
#include "engines/engine.hpp"
#include "fleet_report/campaign_estimate.hpp"
#include "fleet_report/estimate_writers.hpp"
#include "history/store.hpp"
#include "method_catalog/catalog.hpp"
#include "pricing/catalog_file.hpp"
#include "pricing/price_catalog.hpp"

namespace perfzero::commands {

namespace {

namespace fs = std::filesystem;

std::vector<fleet_report::PlannedWork> planned_work(const std::string& suite_file) {
  method_catalog::LazyCatalog catalog(stderr);
  // The suite first (suite_plan_inputs): inputs made before it knew no built-in method (issue 37).
  const config::PlanInputs inputs = suite_plan_inputs(suite_file, catalog);
  std::vector<fleet_report::PlannedWork> out;
  for (const auto& c : engines::build_checked_plan(inputs)) {
    out.push_back({c.name, c.trials + c.warmup_trials, static_cast<double>(c.timeout.count()) / 1000.0});
  }
  if (out.empty()) throw ConfigError(fmt::format("report --estimate: {} selects no method", suite_file));
  return out;
}

// The newest run's median wall time of each case on each system (the fleet's shape names).
fleet_report::TrialDurations durations_from(const cli::ReportOptions& options) {
  fleet_report::TrialDurations out;
  if (options.history_db.empty()) return out;
  try {
    history::Store store = open_history_for_reading(options.history_db, "report --estimate");
    history::SeriesFilter filter;
    filter.label = options.label;
    filter.use_flagged = true;  // a disturbed trial took its time too: durations count every trial
    filter.metric = [](const std::string& metric) { return metric == "wall_time"; };
    // Several labels or images of one system: the newest point of any of them.
    std::map<std::pair<std::string, std::string>, double> newest_at;
    for (const auto& s : store.series(filter)) {
      if (s.points.empty()) continue;
      const auto& newest = s.points.back();  // oldest first
      const auto key = std::make_pair(s.system_name, s.case_name);
      const auto seen = newest_at.find(key);
      if (seen != newest_at.end() && seen->second >= newest.execution_timestamp) continue;
      newest_at[key] = newest.execution_timestamp;
      out[s.system_name][s.case_name] = newest.value;
    }
  } catch (const history::HistoryError& e) {
    throw OutputError(fmt::format("report --estimate: {}", e.what()));
  }
  return out;
}

void write(const fs::path& file, const std::string& text) {
  try {
    files::write_atomically(file, text);
  } catch (const std::system_error& e) {
    throw OutputError(fmt::format("report: cannot write {}: {}", file.string(), e.code().message()));
  }
}

}  // namespace

int estimate_command(const cli::ReportOptions& options) {
  std::optional<pricing::Catalog> catalog;
  const std::string catalog_file = options.no_catalog ? "" : pricing::find_catalog(options.catalog);
  if (!catalog_file.empty()) catalog = pricing::load_catalog(catalog_file);
  const auto work = planned_work(options.estimate);
  auto estimate = fleet_report::estimate_campaign(work, options.shapes, durations_from(options),
                                                  catalog ? &*catalog : nullptr, options.overhead_minutes * 60);
  estimate.suite = options.estimate;
  estimate.history = options.history_db;
  std::ostringstream md;
  fleet_report::write_estimate_markdown(estimate, md);
  if (options.out.empty()) {
    const std::string text = md.str();
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      throw OutputError("report: cannot write the estimate to stdout");
    }
  } else {
    std::error_code ec;
    fs::create_directories(options.out, ec);
    if (ec) throw OutputError(fmt::format("report: cannot create {}: {}", options.out, ec.message()));
    write(fs::path(options.out) / "estimate.md", md.str());
    write(fs::path(options.out) / "estimate.json",
          fleet_report::estimate_json(estimate).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    fmt::print(stderr, "perfzero report: wrote {} (estimate.md, estimate.json)\n", options.out);
  }
  const bool complete = estimate.usd_on_demand.has_value();
  return to_int(complete ? ExitCode::all_succeeded : ExitCode::some_not_succeeded);
}

}  // namespace perfzero::commands
