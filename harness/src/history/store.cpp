// Ingest and queries of the results history, written once over SqlConnection (docs/history.md).
#include "history/store.hpp"

#include <chrono>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "results/model_json.hpp"

namespace perfzero::history {

namespace {

using nlohmann::json;

// Text from a run directory may hold any bytes; the database gets valid UTF-8 (PostgreSQL insists).
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }
std::string text(const std::string& s) {
  return json::parse(json(s).dump(-1, ' ', false, json::error_handler_t::replace)).get<std::string>();
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The id of the row an INSERT ... RETURNING id made (both SQLite 3.35+ and PostgreSQL have it).
std::int64_t inserted_id(const SqlConnection& db, const std::vector<SqlRow>& rows, const std::string& table) {
  if (rows.empty() || rows[0].empty() || !rows[0][0]) {
    throw HistoryError(fmt::format("{}: no id for the new {} row", db.describe(), table));
  }
  return std::stoll(*rows[0][0]);
}

std::string image_of(const results::RunInfo& info) {
  const auto it = info.setup_info.find("docker_image");
  return it != info.setup_info.end() && it->is_string() ? it->get<std::string>() : "";
}

void insert_trial(SqlConnection& db, std::int64_t case_id, const results::Trial& t) {
  const auto inserted = db.query(
      "INSERT INTO trials (case_id, number, warmup, outcome, wall_time, trial_json, flags) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
      {case_id, std::int64_t{t.number}, std::int64_t{t.warmup ? 1 : 0}, std::string(to_string(t.outcome)), t.wall_time,
       dump(results::trial_to_json(t)), dump(json(t.flags))});
  const std::int64_t trial_id = inserted_id(db, inserted, "trials");
  std::int64_t position = 0;
  for (const auto& m : t.metrics) {
    db.exec("INSERT INTO metrics (trial_id, position, name, value, unit, direction) VALUES ($1, $2, $3, $4, $5, $6)",
            {trial_id, position++, text(m.name), m.value, text(m.unit), std::string(perfzero::to_string(m.direction))});
  }
}

// False when a run with this execution id is stored already. ON CONFLICT makes that answer exact
// under concurrent ingests too: a second writer waits for the first, then inserts nothing.
bool insert_run(SqlConnection& db, const results::Run& run) {
  const auto& info = run.info;
  const json info_json = results::run_info_to_json(info);
  const auto inserted = db.query(
      "INSERT INTO runs (execution_id, execution_timestamp, execution_label, system_name, image, status, info_json, "
      "ingested_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (execution_id) DO NOTHING RETURNING id",
      {text(info.execution_id), info.execution_timestamp, text(info.execution_label), text(system_of(info_json)),
       text(image_of(info)), run.status, dump(info_json), now_seconds()});
  if (inserted.empty()) return false;
  const std::int64_t run_id = inserted_id(db, inserted, "runs");
  std::int64_t position = 0;
  for (const auto& c : run.cases) {
    const auto case_row =
        db.query("INSERT INTO cases (run_id, position, name, header_json) VALUES ($1, $2, $3, $4) RETURNING id",
                 {run_id, position++, text(c.name), dump(results::case_header_to_json(c))});
    const std::int64_t case_id = inserted_id(db, case_row, "cases");
    for (const auto& t : c.warmups) insert_trial(db, case_id, t);
    for (const auto& t : c.trials) insert_trial(db, case_id, t);
  }
  return true;
}

RunRow row_of(const SqlRow& r) {
  RunRow out;
  out.execution_id = r[0].value_or("");
  out.execution_timestamp = std::stod(r[1].value_or("0"));
  out.execution_label = r[2].value_or("");
  out.system_name = r[3].value_or("");
  out.image = r[4].value_or("");
  out.status = r[5].value_or("");
  out.cases = std::stoi(r[6].value_or("0"));
  out.trials = std::stoi(r[7].value_or("0"));
  return out;
}

const char* const kListColumns =
    "SELECT r.execution_id, r.execution_timestamp, r.execution_label, r.system_name, r.image, r.status, "
    "(SELECT COUNT(*) FROM cases c WHERE c.run_id = r.id), "
    "(SELECT COUNT(*) FROM trials t JOIN cases c ON t.case_id = c.id WHERE c.run_id = r.id AND t.warmup = 0) "
    "FROM runs r ";

}  // namespace

Store::Store(const std::string& db) : Store(open_database(db)) {}

Store::Store(std::unique_ptr<SqlConnection> connection) : db_(std::move(connection)) { migrate(); }

Store::Ingested Store::ingest(const results::Run& run) {
  if (run.info.execution_id.empty()) {
    throw HistoryError("the run has no execution_id: it cannot be stored (is it a perfzero run?)");
  }
  db_->begin();
  try {
    Ingested result = Ingested::stored;
    const auto before =
        db_->query("SELECT id, status FROM runs WHERE execution_id = $1", {text(run.info.execution_id)});
    if (!before.empty()) {
      // A partial copy (stored while the run ran, or after an interrupt) gives way to the run as it is now.
      if (before[0][1].value_or("") == "completed" || run.status == before[0][1].value_or("")) {
        db_->rollback();
        return Ingested::already_stored;
      }
      db_->exec("DELETE FROM runs WHERE id = $1", {std::stoll(before[0][0].value_or("0"))});
      result = Ingested::completed;
    }
    if (!insert_run(*db_, run)) {
      // Another writer stored it between the look and the insert.
      db_->rollback();
      return Ingested::already_stored;
    }
    db_->commit();
    return result;
  } catch (...) {
    db_->rollback();
    throw;
  }
}

std::vector<RunRow> Store::list(const ListFilter& filter) {
  std::vector<SqlRow> rows;
  if (filter.label.empty()) {
    rows = db_->query(std::string(kListColumns) + "ORDER BY r.execution_timestamp DESC, r.id DESC LIMIT $1",
                      {std::int64_t{filter.limit}});
  } else {
    rows = db_->query(std::string(kListColumns) +
                          "WHERE r.execution_label = $1 ORDER BY r.execution_timestamp DESC, r.id DESC LIMIT $2",
                      {filter.label, std::int64_t{filter.limit}});
  }
  std::vector<RunRow> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(row_of(r));
  return out;
}

std::optional<results::Run> Store::show(const std::string& execution_id) {
  const auto runs = db_->query("SELECT id, status, info_json FROM runs WHERE execution_id = $1", {execution_id});
  if (runs.empty()) return std::nullopt;
  results::Run run;
  run.status = runs[0][1].value_or("");
  run.info = results::run_info_from_json(json::parse(runs[0][2].value_or("{}")));
  const std::int64_t run_id = std::stoll(runs[0][0].value_or("0"));
  std::map<std::string, std::size_t> case_index;  // case id -> position in run.cases
  for (const auto& c : db_->query("SELECT id, header_json FROM cases WHERE run_id = $1 ORDER BY position", {run_id})) {
    case_index[c[0].value_or("")] = run.cases.size();
    run.cases.push_back(results::case_header_from_json(json::parse(c[1].value_or("{}"))));
  }
  for (const auto& t : db_->query("SELECT t.case_id, t.trial_json FROM trials t JOIN cases c ON t.case_id = c.id "
                                  "WHERE c.run_id = $1 ORDER BY t.id",
                                  {run_id})) {
    results::Trial trial = results::trial_from_json(json::parse(t[1].value_or("{}")));
    auto& c = run.cases.at(case_index.at(t[0].value_or("")));
    (trial.warmup ? c.warmups : c.trials).push_back(std::move(trial));
  }
  return run;
}

std::vector<results::Run> Store::label_runs(const std::string& label, int last, const std::string& except_id) {
  const auto ids = db_->query(
      "SELECT id, execution_id, execution_timestamp FROM runs WHERE execution_label = $1 AND execution_id <> $2 "
      "ORDER BY execution_timestamp DESC, id DESC LIMIT $3",
      {label, except_id, std::int64_t{last}});
  std::vector<results::Run> runs;
  std::vector<std::int64_t> run_ids;
  for (const auto& r : ids) {
    results::Run run;
    run.info.execution_id = r[1].value_or("");
    run.info.execution_timestamp = std::stod(r[2].value_or("0"));
    run.info.execution_label = label;
    runs.push_back(std::move(run));
    run_ids.push_back(std::stoll(r[0].value_or("0")));
  }
  load_trials(runs, run_ids);
  return runs;
}

// Only what a comparison needs: succeeded, non-warm-up trials with their wall time, flags and metrics.
void Store::load_trials(std::vector<results::Run>& runs, const std::vector<std::int64_t>& ids) {
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto rows = db_->query(
        "SELECT c.name, t.id, t.wall_time, m.name, m.value, m.unit, m.direction, t.flags FROM cases c "
        "JOIN trials t ON t.case_id = c.id LEFT JOIN metrics m ON m.trial_id = t.id "
        "WHERE c.run_id = $1 AND t.warmup = 0 AND t.outcome = 'succeeded' ORDER BY c.position, t.id, m.position",
        {ids[i]});
    std::string trial_id;
    for (const auto& r : rows) {
      const std::string case_name = r[0].value_or("");
      results::Case* c = runs[i].find_case(case_name);
      if (c == nullptr) {
        runs[i].cases.emplace_back().name = case_name;
        c = &runs[i].cases.back();
      }
      if (r[1].value_or("") != trial_id) {
        trial_id = r[1].value_or("");
        results::Trial& t = c->trials.emplace_back();
        t.outcome = Outcome::succeeded;
        t.wall_time = std::stod(r[2].value_or("0"));
        // Flags decide whether the trial counts (results/flags.hpp); a stored value that is not a list of
        // names is no flag at all.
        const json flags = json::parse(r[7].value_or("[]"), nullptr, false);
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
  }
}

}  // namespace perfzero::history
