#include "history/store_rows.hpp"

#include <set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compare/compare_runs.hpp"
#include "results/statistics.hpp"

namespace perfzero::history {

std::string valid_utf8(const std::string& s) {
  using nlohmann::json;
  return json::parse(json(s).dump(-1, ' ', false, json::error_handler_t::replace)).get<std::string>();
}

results::Run load_measured_trials(SqlConnection& db, std::int64_t run_id) {
  results::Run run;
  const auto rows = db.query(
      "SELECT c.name, t.id, t.wall_time, m.name, m.value, m.unit, m.direction, t.flags FROM cases c "
      "JOIN trials t ON t.case_id = c.id LEFT JOIN metrics m ON m.trial_id = t.id "
      "WHERE c.run_id = $1 AND t.warmup = 0 AND t.outcome = 'succeeded' ORDER BY c.position, t.id, m.position",
      {run_id});
  std::string trial_id;
  for (const auto& r : rows) {
    const std::string case_name = r[0].value_or("");
    results::Case* c = run.find_case(case_name);
    if (c == nullptr) {
      run.cases.emplace_back().name = case_name;
      c = &run.cases.back();
    }
    if (r[1].value_or("") != trial_id) {
      trial_id = r[1].value_or("");
      results::Trial& t = c->trials.emplace_back();
      t.outcome = Outcome::succeeded;
      t.wall_time = std::stod(r[2].value_or("0"));
      // Flags decide whether the trial counts (results/flags.hpp); a stored value that is not a list of
      // names is no flag at all.
      const auto flags = nlohmann::json::parse(r[7].value_or("[]"), nullptr, false);
      if (flags.is_array()) {
        for (const auto& f : flags) {
          if (f.is_string()) t.flags.push_back(f.get<std::string>());
        }
      }
    }
    if (!r[3]) continue;  // a trial without metrics
    results::MetricValue m;
    m.name = *r[3];
    m.value = std::stod(r[4].value_or("0"));
    m.unit = r[5].value_or("");
    m.direction = direction_from_string(r[6].value_or("")).value_or(Direction::unspecified);
    c->trials.back().metrics.push_back(std::move(m));
  }
  return run;
}

namespace {

// The id of the series named by case, metric, unit and direction, made when new. ON CONFLICT makes
// two writers naming a new series at once agree on one row.
std::int64_t series_id(SqlConnection& db, const std::vector<SqlValue>& name) {
  const char* const match = "case_name = $1 AND metric = $2 AND unit = $3 AND direction = $4";
  auto rows = db.query(fmt::format("SELECT id FROM series WHERE {}", match), name);
  if (rows.empty()) {
    db.exec("INSERT INTO series (case_name, metric, unit, direction) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            name);
    rows = db.query(fmt::format("SELECT id FROM series WHERE {}", match), name);
  }
  if (rows.empty() || rows[0].empty() || !rows[0][0]) {
    throw HistoryError(fmt::format("{}: no id for a new series row", db.describe()));
  }
  return std::stoll(*rows[0][0]);
}

}  // namespace

void insert_series_points(SqlConnection& db, std::int64_t run_id, const results::Run& run) {
  std::set<std::int64_t> stored;
  for (const auto& c : compare::collect_values(run)) {
    for (const auto& s : c.series) {
      const auto all = results::compute_stats(s.values).median;
      if (!all) continue;
      const std::int64_t series = series_id(db, {valid_utf8(c.case_name), valid_utf8(s.metric), valid_utf8(s.unit),
                                                 std::string(perfzero::to_string(s.direction))});
      if (!stored.insert(series).second) continue;
      const auto undisturbed = compare::side_of(c, s, false);
      const auto median = results::compute_stats(undisturbed.values).median;
      std::vector<SqlValue> params = {run_id, series};
      if (median) params.emplace_back(*median);
      const std::size_t n = params.size();
      params.emplace_back(static_cast<std::int64_t>(undisturbed.values.size()));
      params.emplace_back(*all);
      params.emplace_back(static_cast<std::int64_t>(s.values.size()));
      db.exec(fmt::format("INSERT INTO series_points (run_id, series_id, value, trials, value_all, trials_all) "
                          "VALUES ($1, $2, {}, ${}, ${}, ${})",
                          median ? "$3" : "NULL", n + 1, n + 2, n + 3),
              params);
    }
  }
}

}  // namespace perfzero::history
