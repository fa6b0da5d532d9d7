// Databases written by earlier perfzero versions migrate to this one's schema, on a real SQLite file
// and on a real PostgreSQL server (docs/history.md, "Schema (version 4)").
#include "history/store.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../integration/postgres_server.hpp"
#include "history/store_rows.hpp"
#include "history_store_runs.hpp"
#include "results/model_json.hpp"
#include "temp_dir.hpp"

namespace perfzero::history {
namespace {

using test_runs::count;
using test_runs::count_where;
using test_runs::make_run;
using testing::TempDir;

// A database as version 2 wrote it (its statements, as schema.cpp had them), with one run: version 3
// fills the source columns from the run's info and moves the run's info and each trial's JSON into
// the run's compressed document; version 4 computes its series points from its trials and metrics,
// moves the cases' headers into the document and drops the tables of cases, trials and metrics.
// A database as version 2 wrote it (its statements, as schema.cpp had them), holding `run`.
void plant_version2_run(SqlConnection& db, const results::Run& run) {
  // The one statement the dialects spell differently, as schema.cpp's key_column has it.
  const std::string key = db.dialect() == "sqlite" ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGSERIAL PRIMARY KEY";
  const std::vector<std::string> statements = {
      "CREATE TABLE runs (id " + key +
          ", execution_id TEXT NOT NULL UNIQUE, "
          "execution_timestamp DOUBLE PRECISION NOT NULL, execution_label TEXT NOT NULL, system_name TEXT NOT "
          "NULL, image TEXT NOT NULL, status TEXT NOT NULL, info_json TEXT NOT NULL, ingested_at DOUBLE "
          "PRECISION NOT NULL)",
      "CREATE INDEX runs_by_label ON runs (execution_label, execution_timestamp)",
      "CREATE TABLE cases (id " + key +
          ", run_id BIGINT NOT NULL REFERENCES runs(id) "
          "ON DELETE CASCADE, position INTEGER NOT NULL, name TEXT NOT NULL, header_json TEXT NOT NULL)",
      "CREATE INDEX cases_by_run ON cases (run_id)",
      "CREATE TABLE trials (id " + key +
          ", case_id BIGINT NOT NULL REFERENCES "
          "cases(id) ON DELETE CASCADE, number INTEGER NOT NULL, warmup INTEGER NOT NULL, outcome TEXT NOT NULL, "
          "wall_time DOUBLE PRECISION NOT NULL, trial_json TEXT NOT NULL)",
      "CREATE INDEX trials_by_case ON trials (case_id)",
      "CREATE TABLE metrics (trial_id BIGINT NOT NULL REFERENCES trials(id) ON DELETE CASCADE, position "
      "INTEGER NOT NULL, name TEXT NOT NULL, value DOUBLE PRECISION NOT NULL, unit TEXT NOT NULL, direction "
      "TEXT NOT NULL)",
      "CREATE INDEX metrics_by_trial ON metrics (trial_id)",
      "ALTER TABLE trials ADD COLUMN flags TEXT NOT NULL DEFAULT '[]'",
      "CREATE TABLE perfzero_schema (version INTEGER NOT NULL)",
      "INSERT INTO perfzero_schema (version) VALUES (1)",
      "INSERT INTO perfzero_schema (version) VALUES (2)",
  };
  for (const auto& sql : statements) db.exec(sql);
  db.exec(
      "INSERT INTO runs (execution_id, execution_timestamp, execution_label, system_name, image, status, "
      "info_json, ingested_at) VALUES ('run-1', 1000, 'main', 'box', '', 'completed', $1, 0)",
      {results::run_info_to_json(run.info).dump()});
  std::int64_t position = 0;
  for (const auto& c : run.cases) {
    // PostgreSQL takes only valid UTF-8 text, as its version 2 was given.
    db.exec("INSERT INTO cases (run_id, position, name, header_json) VALUES (1, $1, $2, $3)",
            {position, valid_utf8(c.name),
             results::case_header_to_json(c).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)});
    const std::int64_t case_id = position + 1;
    for (const auto* trials : {&c.warmups, &c.trials}) {
      for (const auto& t : *trials) {
        const auto id = db.query(
            "INSERT INTO trials (case_id, number, warmup, outcome, wall_time, trial_json, flags) VALUES ($1, $2, $3, "
            "$4, $5, $6, '[]') RETURNING id",
            {case_id, std::int64_t{t.number}, std::int64_t{t.warmup ? 1 : 0}, std::string(to_string(t.outcome)),
             t.wall_time, results::trial_to_json(t).dump()});
        std::int64_t m_position = 0;
        for (const auto& m : t.metrics) {
          db.exec(
              "INSERT INTO metrics (trial_id, position, name, value, unit, direction) VALUES ($1, $2, $3, $4, "
              "$5, $6)",
              {std::stoll(*id[0][0]), m_position++, m.name, m.value, m.unit,
               std::string(perfzero::to_string(m.direction))});
        }
      }
    }
    ++position;
  }
}

TEST(HistoryStore, AVersion2DatabaseMigratesItsSourceSeriesPointsAndTrials) {
  TempDir dir;
  const auto db = dir.path() / "h.sqlite";
  const results::Run run = [] {
    results::Run r = make_run("run-1", "main", 1000);
    r.info.source.commit = "abc";
    r.info.source.branch = "main";
    return r;
  }();
  plant_version2_run(*open_sqlite(db.string()), run);
  Store store(db.string());
  EXPECT_EQ(store.schema_version(), kSchemaVersion);
  EXPECT_EQ(store.list({})[0].commit, "abc");
  EXPECT_EQ(store.list({})[0].branch, "main");
  EXPECT_EQ(store.list({})[0].cases, 2);
  EXPECT_EQ(store.list({})[0].trials, 6);    // warm-ups are not counted
  EXPECT_EQ(count(db, "series_points"), 6);  // 2 cases x 3 metrics
  EXPECT_EQ(store.label_medians("main", 5, "", false).medians.at({"fam.A.one", "latency"}), std::vector<double>{15.0});
  const auto shown = store.show("run-1");
  ASSERT_TRUE(shown.has_value());
  ASSERT_EQ(shown->cases.size(), 2U);
  EXPECT_EQ(shown->cases[0].trials.size(), 3U);
  EXPECT_EQ(shown->cases[0].warmups.size(), 1U);
  EXPECT_EQ(shown->cases[0].trials[1].metrics[0].value, 20.0);
  EXPECT_EQ(shown->info.source.commit, "abc");
  EXPECT_EQ(shown->cases[1].name, "fam.A.two[n=\xef\xbf\xbd]");  // from its header, as stored
  // The JSON columns and the tables of cases, trials and metrics are gone; the run's document holds it all.
  EXPECT_EQ(count_where(db, "pragma_table_info('runs')", "name = 'info_json'"), 0);
  for (const char* table : {"cases", "trials", "metrics"}) {
    EXPECT_EQ(count_where(db, "sqlite_schema", fmt::format("type = 'table' AND name = '{}'", table)), 0) << table;
  }
  EXPECT_EQ(count(db, "run_documents"), 1);
}

// The same version-2 run on a real PostgreSQL server (initdb and pg_ctl in a temporary directory),
// migrated through version 3 (its documents, BYTEA there) to this build's version.
TEST(HistoryStorePostgres, AVersion2DatabaseWithARunMigratesThroughVersion3) {
  testing::PostgresServer server;
  if (!server.started()) GTEST_SKIP() << server.why_not();
  results::Run run = make_run("run-1", "main", 1000);
  run.info.source.commit = "abc";
  plant_version2_run(*open_postgresql(server.url()), run);
  Store store(server.url());
  EXPECT_EQ(store.schema_version(), kSchemaVersion);
  ASSERT_EQ(store.list({}).size(), 1U);
  EXPECT_EQ(store.list({})[0].commit, "abc");
  EXPECT_EQ(store.list({})[0].trials, 6);
  EXPECT_EQ(store.label_medians("main", 5, "", false).medians.at({"fam.A.one", "latency"}), std::vector<double>{15.0});
  EXPECT_EQ(store.series({}).size(), 6U);  // 2 cases x (latency, rate, wall_time)
  const auto shown = store.show("run-1");
  ASSERT_TRUE(shown.has_value());
  ASSERT_EQ(shown->cases.size(), 2U);
  EXPECT_EQ(shown->cases[0].warmups.size(), 1U);
  EXPECT_EQ(shown->cases[0].trials[1].metrics[0].value, 20.0);
  const auto tables = open_postgresql(server.url())
                          ->query(
                              "SELECT COUNT(*) FROM information_schema.tables WHERE table_name IN "
                              "('cases', 'trials', 'metrics')");
  EXPECT_EQ(tables[0][0].value_or(""), "0");
}

}  // namespace
}  // namespace perfzero::history
