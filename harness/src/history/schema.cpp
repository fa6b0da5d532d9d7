// The history's schema and its migrations (docs/history.md). Each migration takes the database from
// version N-1 to N inside one transaction; a database newer than this build is refused.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "history/compressed_text.hpp"
#include "history/run_document.hpp"
#include "history/store.hpp"
#include "history/store_rows.hpp"
#include "results/model_json.hpp"

namespace perfzero::history {

// What a list shows in its system column when the run was given no --system_name: the instance type,
// else the host's name.
std::string system_of(const nlohmann::json& info) {
  const auto text = [&](const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (!info.is_object()) return "";
  if (auto name = text(info, "system_name"); !name.empty()) return name;
  if (auto type = text(info, "instance_type"); !type.empty()) return type;
  const auto sys = info.find("system_info");
  return sys != info.end() && sys->is_object() ? text(*sys, "hostname") : "";
}

namespace {

// The one difference between the dialects this schema needs: an auto-increment key.
std::string key_column(const SqlConnection& db) {
  return db.dialect() == "postgresql" ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT";
}

// Version 1: runs, their cases, trials and metrics. Trials keep their full JSON (what `show`
// restores); metrics are rows of their own, which is what `compare --history` reads.
std::vector<std::string> migration_1(const SqlConnection& db) {
  const std::string key = key_column(db);
  return {
      "CREATE TABLE runs (id " + key +
          ", execution_id TEXT NOT NULL UNIQUE, execution_timestamp DOUBLE PRECISION NOT NULL, "
          "execution_label TEXT NOT NULL, system_name TEXT NOT NULL, image TEXT NOT NULL, status TEXT NOT NULL, "
          "info_json TEXT NOT NULL, ingested_at DOUBLE PRECISION NOT NULL)",
      "CREATE INDEX runs_by_label ON runs (execution_label, execution_timestamp)",
      "CREATE TABLE cases (id " + key +
          ", run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, position INTEGER NOT NULL, "
          "name TEXT NOT NULL, header_json TEXT NOT NULL)",
      "CREATE INDEX cases_by_run ON cases (run_id)",
      "CREATE TABLE trials (id " + key +
          ", case_id BIGINT NOT NULL REFERENCES cases(id) ON DELETE CASCADE, number INTEGER NOT NULL, "
          "warmup INTEGER NOT NULL, outcome TEXT NOT NULL, wall_time DOUBLE PRECISION NOT NULL, "
          "trial_json TEXT NOT NULL)",
      "CREATE INDEX trials_by_case ON trials (case_id)",
      std::string("CREATE TABLE metrics (trial_id BIGINT NOT NULL REFERENCES trials(id) ON DELETE CASCADE, ") +
          "position INTEGER NOT NULL, name TEXT NOT NULL, value DOUBLE PRECISION NOT NULL, unit TEXT NOT NULL, "
          "direction TEXT NOT NULL)",
      "CREATE INDEX metrics_by_trial ON metrics (trial_id)",
  };
}

// Version 2: each trial's flags as a column of their own (a JSON array), so that comparisons against
// the history leave disturbed trials out without reading every trial's JSON; and the system column
// filled for runs given no --system_name.
void migration_2(SqlConnection& db) {
  db.exec("ALTER TABLE trials ADD COLUMN flags TEXT NOT NULL DEFAULT '[]'");
  for (const auto& row : db.query("SELECT id, trial_json FROM trials")) {
    const auto trial = nlohmann::json::parse(row[1].value_or("{}"), nullptr, false);
    const auto flags = trial.is_object() ? trial.find("flags") : trial.end();
    if (flags == trial.end() || !flags->is_array() || flags->empty()) continue;
    db.exec("UPDATE trials SET flags = $1 WHERE id = $2",
            {flags->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), std::stoll(row[0].value_or("0"))});
  }
  for (const auto& row : db.query("SELECT id, info_json FROM runs WHERE system_name = ''")) {
    const std::string system = system_of(nlohmann::json::parse(row[1].value_or("{}"), nullptr, false));
    if (!system.empty()) {
      db.exec("UPDATE runs SET system_name = $1 WHERE id = $2", {system, std::stoll(row[0].value_or("0"))});
    }
  }
}

// Version 3 (issue 23):
// - what each run was made of (commit, branch, build label) as columns;
// - one point per run, case and metric: the run's median over its succeeded, undisturbed trials
//   (NULL when every one was disturbed) and over all its succeeded ones (--use_flagged), which is
//   what a series (`history changes`) reads, so that 100,000 runs are read as 100,000 rows per
//   series, not as every trial's metrics;
// - each run kept whole once, its info and all its trials in one zlib-compressed JSON document
//   (run_documents), instead of each trial's JSON in its row and the info in the runs row: 632 MB
//   for 10,000 runs became what docs/performance.md says, and the runs rows that every query scans
//   stay narrow. The trials' rows keep what queries read (outcome, wall time, flags, metrics).
// Existing runs get all of it from what they stored.
void migration_3(SqlConnection& db) {
  for (const char* column : {"commit_id", "branch", "build_label"}) {
    db.exec(fmt::format("ALTER TABLE runs ADD COLUMN {} TEXT NOT NULL DEFAULT ''", column));
  }
  db.exec(
      "CREATE TABLE series_points (run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, "
      "case_name TEXT NOT NULL, metric TEXT NOT NULL, unit TEXT NOT NULL, direction TEXT NOT NULL, "
      "value DOUBLE PRECISION, trials INTEGER NOT NULL, value_all DOUBLE PRECISION NOT NULL, "
      "trials_all INTEGER NOT NULL)");
  db.exec("CREATE INDEX series_points_by_run ON series_points (run_id)");
  db.exec("CREATE INDEX runs_by_time ON runs (execution_timestamp)");
  for (const auto& row : db.query("SELECT id, info_json FROM runs")) {
    const auto info = nlohmann::json::parse(row[1].value_or("{}"), nullptr, false);
    const auto source =
        results::source_info_from_json(info.is_object() ? info.value("source", nlohmann::json()) : nlohmann::json());
    const std::int64_t id = std::stoll(row[0].value_or("0"));
    if (!source.empty()) {
      db.exec("UPDATE runs SET commit_id = $1, branch = $2, build_label = $3 WHERE id = $4",
              {source.commit, source.branch, source.build_label, id});
    }
  }
  // Its points are made by migration 4, which replaces this table.
  db.exec(std::string("CREATE TABLE run_documents (run_id BIGINT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE, "
                      "document ") +
          (db.dialect() == "postgresql" ? "BYTEA" : "BLOB") + " NOT NULL)");
  for (const auto& row : db.query("SELECT id, info_json FROM runs")) {
    const std::int64_t id = std::stoll(row[0].value_or("0"));
    std::vector<std::vector<nlohmann::json>> cases;
    for (const auto& t : db.query("SELECT c.position, t.trial_json FROM trials t JOIN cases c ON t.case_id = c.id "
                                  "WHERE c.run_id = $1 ORDER BY c.position, t.id",
                                  {id})) {
      const auto position = static_cast<std::size_t>(std::stoll(t[0].value_or("0")));
      if (cases.size() <= position) cases.resize(position + 1);
      auto trial = nlohmann::json::parse(t[1].value_or("{}"), nullptr, false);
      cases[position].push_back(trial.is_discarded() ? nlohmann::json::object() : std::move(trial));
    }
    auto info = nlohmann::json::parse(row[1].value_or("{}"), nullptr, false);
    db.exec("INSERT INTO run_documents (run_id, document) VALUES ($1, $2)",
            {id, SqlBlob{compress_document(info.is_discarded() ? nlohmann::json::object() : info, {}, cases)}});
  }
  db.exec("ALTER TABLE trials DROP COLUMN trial_json");
  db.exec("ALTER TABLE runs DROP COLUMN info_json");
}

// Version 4 (issue 23, the database at most 100 MB for 10,000 runs):
// - the trials, metrics and cases tables are gone: every trial is in the run's document already,
//   and what comparisons read is the series points, so each trial's metrics were kept twice; the
//   cases' headers join the document, and the runs row counts the cases and measured trials;
// - each series is named once (the series table: case, metric, unit, direction) rather than in
//   every point, and a point is keyed by its run and series (SQLite: WITHOUT ROWID, no index of
//   its own); compare --history reads these points instead of every trial's metrics.
// Existing runs: the points are made again from their trials and metrics, as ingest makes them.
void migration_4(SqlConnection& db) {
  const bool sqlite = db.dialect() == "sqlite";
  db.exec("ALTER TABLE runs ADD COLUMN cases_count INTEGER NOT NULL DEFAULT 0");
  db.exec("ALTER TABLE runs ADD COLUMN trials_count INTEGER NOT NULL DEFAULT 0");
  db.exec(
      "UPDATE runs SET cases_count = (SELECT COUNT(*) FROM cases c WHERE c.run_id = runs.id), "
      "trials_count = (SELECT COUNT(*) FROM trials t JOIN cases c ON t.case_id = c.id "
      "WHERE c.run_id = runs.id AND t.warmup = 0)");
  db.exec("DROP TABLE series_points");
  db.exec("CREATE TABLE series (id " + key_column(db) +
          ", case_name TEXT NOT NULL, metric TEXT NOT NULL, unit TEXT NOT NULL, direction TEXT NOT NULL, "
          "UNIQUE (case_name, metric, unit, direction))");
  db.exec(std::string("CREATE TABLE series_points (run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, "
                      "series_id BIGINT NOT NULL REFERENCES series(id), value DOUBLE PRECISION, "
                      "trials INTEGER NOT NULL, value_all DOUBLE PRECISION NOT NULL, trials_all INTEGER NOT NULL, "
                      "PRIMARY KEY (run_id, series_id))") +
          (sqlite ? " WITHOUT ROWID" : ""));
  // One run at a time: a large history's documents are never all in memory.
  for (const auto& row : db.query("SELECT id FROM runs")) {
    const std::int64_t id = std::stoll(row[0].value_or("0"));
    insert_series_points(db, id, load_measured_trials(db, id));
    const auto stored = db.query("SELECT document FROM run_documents WHERE run_id = $1", {id});
    if (stored.empty()) continue;  // its points are made; it has no document to complete
    nlohmann::json headers = nlohmann::json::array();
    for (const auto& c : db.query("SELECT header_json FROM cases WHERE run_id = $1 ORDER BY position", {id})) {
      auto header = nlohmann::json::parse(c[0].value_or("{}"), nullptr, false);
      headers.push_back(header.is_discarded() ? nlohmann::json::object() : std::move(header));
    }
    // A document that cannot be read stays as it is: `history show` names it damaged, as before.
    const auto text = inflate_text(stored[0][0].value_or(""));
    if (!text) continue;
    auto doc = nlohmann::json::parse(*text, nullptr, false);
    if (!doc.is_object()) continue;
    // Cases without a trial had no place of their own in version 3's document.
    if (!doc.contains("cases") || !doc["cases"].is_array()) continue;
    while (doc["cases"].size() < headers.size()) doc["cases"].push_back(nlohmann::json::array());
    doc["headers"] = std::move(headers);
    db.exec("UPDATE run_documents SET document = $1 WHERE run_id = $2",
            {SqlBlob{deflate_text(doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))}, id});
  }
  db.exec("DROP TABLE metrics");
  db.exec("DROP TABLE trials");
  db.exec("DROP TABLE cases");
}

int current_version(SqlConnection& db) {
  db.exec("CREATE TABLE IF NOT EXISTS perfzero_schema (version INTEGER NOT NULL)");
  const auto rows = db.query("SELECT MAX(version) FROM perfzero_schema");
  if (rows.empty() || !rows[0][0]) return 0;
  return std::stoi(*rows[0][0]);
}

}  // namespace

void Store::migrate() {
  db_->begin();
  try {
    const int version = current_version(*db_);
    if (version > kSchemaVersion) {
      throw HistoryError(fmt::format("{}: the results database has schema version {}; this perfzero knows up to {}",
                                     db_->describe(), version, kSchemaVersion));
    }
    if (version < 1) {
      for (const auto& sql : migration_1(*db_)) db_->exec(sql);
      db_->exec("INSERT INTO perfzero_schema (version) VALUES ($1)", {std::int64_t{1}});
    }
    if (version < 2) {
      migration_2(*db_);
      db_->exec("INSERT INTO perfzero_schema (version) VALUES ($1)", {std::int64_t{2}});
    }
    if (version < 3) {
      migration_3(*db_);
      db_->exec("INSERT INTO perfzero_schema (version) VALUES ($1)", {std::int64_t{3}});
    }
    if (version < 4) {
      migration_4(*db_);
      db_->exec("INSERT INTO perfzero_schema (version) VALUES ($1)", {std::int64_t{4}});
    }
    db_->commit();
  } catch (...) {
    db_->rollback();
    throw;
  }
}

int Store::schema_version() { return current_version(*db_); }

}  // namespace perfzero::history
