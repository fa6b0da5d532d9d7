// The results history on a real SQLite file (docs/history.md): schema and migrations, idempotent
// and transactional ingest, list, show and the runs `compare --history` reads.
#include "history/store.hpp"

#include <algorithm>

#include <sqlite3.h>
#include <sys/stat.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "../integration/postgres_server.hpp"
#include "history/compressed_text.hpp"
#include "history/store_rows.hpp"
#include "results/model_json.hpp"
#include "temp_dir.hpp"

namespace perfzero::history {
namespace {

using testing::TempDir;

results::Run make_run(const std::string& id, const std::string& label, double timestamp, int trials = 3,
                      const std::string& metric = "latency") {
  results::Run run;
  run.status = "completed";
  run.info.execution_id = id;
  run.info.execution_label = label;
  run.info.execution_timestamp = timestamp;
  run.info.system_name = "box";
  run.info.setup_info = {{"docker_image", "perfzero:cpu"}};
  for (const char* name : {"fam.A.one", "fam.A.two[n=\xff]"}) {
    results::Case c;
    c.name = c.method = name;
    for (int n = 1; n <= trials; ++n) {
      results::Trial t;
      t.number = n;
      t.outcome = n == trials ? Outcome::failed : Outcome::succeeded;
      t.wall_time = 0.5 + n;
      t.metrics.push_back({metric, 10.0 * n, "ms", std::nullopt, std::nullopt, Direction::lower_is_better});
      t.metrics.push_back({"rate", 1.0 / n, "1/s", std::nullopt, std::nullopt, Direction::higher_is_better});
      c.trials.push_back(t);
    }
    results::Trial warm = c.trials.front();
    warm.warmup = true;
    c.warmups.push_back(warm);
    run.cases.push_back(c);
  }
  return run;
}

int count(const std::filesystem::path& db, const std::string& table) {
  sqlite3* raw = nullptr;
  sqlite3_open(db.c_str(), &raw);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(raw, ("SELECT COUNT(*) FROM " + table).c_str(), -1, &stmt, nullptr);
  sqlite3_step(stmt);
  const int n = sqlite3_column_int(stmt, 0);
  sqlite3_finalize(stmt);
  sqlite3_close(raw);
  return n;
}

TEST(HistoryStore, CreatesTheSchemaOnceAndRefusesANewerOne) {
  TempDir dir;
  const auto db = (dir.path() / "h.sqlite").string();
  EXPECT_EQ(Store(db).schema_version(), kSchemaVersion);
  EXPECT_EQ(Store(db).schema_version(), kSchemaVersion);    // reopening migrates nothing
  EXPECT_EQ(count(db, "perfzero_schema"), kSchemaVersion);  // one row per migration
  {
    auto raw = open_sqlite(db);
    raw->exec("INSERT INTO perfzero_schema (version) VALUES (99)");
  }
  try {
    Store newer(db);
    FAIL() << "opened a database from a newer perfzero";
  } catch (const HistoryError& e) {
    EXPECT_NE(
        std::string(e.what()).find(fmt::format("schema version 99; this perfzero knows up to {}", kSchemaVersion)),
        std::string::npos)
        << e.what();
  }
}

// Issue 20: a run ingested while it ran was stored frozen (3 of 6 trials), and a later ingest of it
// said "already stored".
TEST(HistoryStore, AnUnfinishedRunStoredEarlyIsReplacedWhenItIsIngestedFinished) {
  TempDir dir;
  Store store((dir.path() / "h.sqlite").string());
  results::Run half = make_run("run-1", "main", 1000, 1);
  half.status = "running";
  EXPECT_EQ(store.ingest(half), Store::Ingested::stored);
  EXPECT_EQ(store.ingest(half), Store::Ingested::already_stored);
  const results::Run whole = make_run("run-1", "main", 1000, 3);
  EXPECT_EQ(store.ingest(whole), Store::Ingested::completed);
  EXPECT_EQ(count(dir.path() / "h.sqlite", "runs"), 1);
  EXPECT_EQ(store.show("run-1")->cases[0].trials.size(), 3U);
  EXPECT_EQ(store.ingest(whole), Store::Ingested::already_stored);
}

TEST(HistoryStore, IngestIsIdempotentAndShowGivesTheRunBack) {
  TempDir dir;
  Store store((dir.path() / "h.sqlite").string());
  const results::Run run = make_run("run-1", "main", 1000);
  EXPECT_EQ(store.ingest(run), Store::Ingested::stored);
  EXPECT_EQ(store.ingest(run), Store::Ingested::already_stored);  // the same run twice is stored once
  EXPECT_EQ(count(dir.path() / "h.sqlite", "runs"), 1);
  EXPECT_EQ(count(dir.path() / "h.sqlite", "run_documents"), 1);
  EXPECT_EQ(count(dir.path() / "h.sqlite", "series_points"), 6);  // 2 cases x (2 metrics + wall_time)
  EXPECT_EQ(count(dir.path() / "h.sqlite", "series"), 6);

  const auto back = store.show("run-1");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->info.execution_label, "main");
  EXPECT_EQ(back->info.setup_info["docker_image"], "perfzero:cpu");
  ASSERT_EQ(back->cases.size(), 2U);
  EXPECT_EQ(back->cases[0].name, "fam.A.one");
  EXPECT_EQ(back->cases[1].name, "fam.A.two[n=\xef\xbf\xbd]");  // stored as valid UTF-8
  ASSERT_EQ(back->cases[0].trials.size(), 3U);
  EXPECT_EQ(back->cases[0].warmups.size(), 1U);
  EXPECT_EQ(back->cases[0].trials[2].outcome, Outcome::failed);
  EXPECT_EQ(back->cases[0].trials[1].metrics[0].value, 20.0);
  EXPECT_EQ(back->cases[0].trials[1].metrics[1].direction, Direction::higher_is_better);
  EXPECT_FALSE(store.show("run-2"));
}

TEST(HistoryStore, ListsNewestFirstByLabel) {
  TempDir dir;
  Store store((dir.path() / "h.sqlite").string());
  store.ingest(make_run("old", "main", 1000));
  store.ingest(make_run("new", "main", 3000));
  store.ingest(make_run("pr", "pr-7", 2000));
  const auto all = store.list({});
  ASSERT_EQ(all.size(), 3U);
  EXPECT_EQ(all[0].execution_id, "new");
  EXPECT_EQ(all[1].execution_id, "pr");
  EXPECT_EQ(all[0].image, "perfzero:cpu");
  EXPECT_EQ(all[0].cases, 2);
  EXPECT_EQ(all[0].trials, 6);  // warm-ups are not counted
  const auto main = store.list({"main", 1});
  ASSERT_EQ(main.size(), 1U);
  EXPECT_EQ(main[0].execution_id, "new");
}

TEST(HistoryStore, LabelMediansAreEachRunsMedianOfItsSucceededTrialsNewestFirst) {
  TempDir dir;
  Store store((dir.path() / "h.sqlite").string());
  for (int i = 0; i < 5; ++i) {
    results::Run run = make_run("main-" + std::to_string(i), "main", 1000.0 + i);
    run.cases[0].trials[0].metrics[0].value = 10.0 + i;  // each run's median of latency: (10 + i + 20) / 2
    store.ingest(run);
  }
  store.ingest(make_run("other", "dev", 5000));
  const auto history = store.label_medians("main", 3, "main-4", false);
  EXPECT_EQ(history.runs, 3U);  // the candidate left out
  const auto& latency = history.medians.at({"fam.A.one", "latency"});
  // Newest first; the failed third trial and the warm-up are not measurements.
  EXPECT_EQ(latency, (std::vector<double>{16.5, 16.0, 15.5}));
  EXPECT_EQ(history.medians.at({"fam.A.one", "wall_time"}), (std::vector<double>{2.0, 2.0, 2.0}));
  EXPECT_EQ(history.medians.at({"fam.A.one", "rate"}), (std::vector<double>{0.75, 0.75, 0.75}));
  EXPECT_EQ(store.label_medians("none", 3, "", false).runs, 0U);
}

TEST(HistoryStore, LabelMediansLeaveOutDisturbedTrialsUnlessAskedAndRunsWithNoneLeft) {
  TempDir dir;
  Store store((dir.path() / "h.sqlite").string());
  results::Run partly = make_run("partly", "main", 1000);
  partly.cases[0].trials[0].flags = {"host_busy"};  // 10 ms disturbed: the undisturbed median is 20
  store.ingest(partly);
  results::Run wholly = make_run("wholly", "main", 2000);
  for (auto& c : wholly.cases) {
    for (auto& t : c.trials) t.flags = {"host_busy"};
  }
  store.ingest(wholly);
  EXPECT_EQ(store.label_medians("main", 10, "", false).medians.at({"fam.A.one", "latency"}), std::vector<double>{20.0});
  EXPECT_EQ(store.label_medians("main", 10, "", true).medians.at({"fam.A.one", "latency"}),
            (std::vector<double>{15.0, 15.0}));
}

TEST(HistoryStore, AFailureMidIngestLeavesNoHalfRun) {
  TempDir dir;
  const auto db = (dir.path() / "h.sqlite").string();
  Store store(db);
  // A real failure inside the database, after the run, its document and some points were inserted.
  open_sqlite(db)->exec(
      "CREATE TRIGGER refuse_boom BEFORE INSERT ON series_points WHEN NEW.value > 1e8 "
      "BEGIN SELECT RAISE(ABORT, 'refused'); END");
  results::Run run = make_run("half", "main", 1000);
  run.cases[1].trials[1].metrics[0].value = 1e9;
  EXPECT_THROW(store.ingest(run), HistoryError);
  for (const char* table : {"runs", "run_documents", "series_points", "series"}) {
    EXPECT_EQ(count(db, table), 0) << table;
  }
  // The store is usable afterwards, and the same run goes in once it can.
  run.cases[1].trials[1].metrics[0].value = 20;
  EXPECT_EQ(store.ingest(run), Store::Ingested::stored);
  EXPECT_EQ(count(db, "series_points"), 6);
}

TEST(HistoryStore, WhatIsNotADatabaseFileIsAClearErrorNeverAHang) {
  TempDir dir;
  const auto junk = dir.write("junk.sqlite", std::string(4096, 'x'));
  const auto fifo = dir.path() / "fifo.sqlite";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Store(dir.path() / "real.sqlite").ingest(make_run("r", "main", 1));
  const auto link = dir.path() / "link.sqlite";
  std::filesystem::create_symlink(dir.path() / "real.sqlite", link);  // refused: it could point anywhere
  for (const auto& path : {junk, fifo, link, dir.path()}) {
    try {
      Store store(path.string());
      store.list({});
      FAIL() << "opened " << path;
    } catch (const HistoryError& e) {
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace perfzero::history

namespace perfzero::history {
namespace {

int count_where(const std::filesystem::path& db, const std::string& table, const std::string& where) {
  return count(db, table + " WHERE " + where);
}

TEST(HistoryStore, SeriesHoldOneMedianPerRunOldestFirstWithTheCommitAndLeaveDisturbedTrialsOut) {
  TempDir dir;
  const auto db = dir.path() / "h.sqlite";
  Store store(db.string());
  for (int i = 0; i < 3; ++i) {
    results::Run run = make_run(fmt::format("run-{}", i), "main", 3000.0 - 1000 * i);  // ingested newest first
    run.info.source.commit = fmt::format("c{}", i);
    run.info.source.branch = "main";
    // The second trial of every case is disturbed: the median is then that of trial 1 alone.
    for (auto& c : run.cases) c.trials[1].flags = {"host_busy"};
    store.ingest(run);
  }
  store.ingest(make_run("other-0", "nightly", 500));
  const auto all = store.series({});
  // 2 labels x 2 cases x (latency, rate, wall_time).
  ASSERT_EQ(all.size(), 12U);
  SeriesFilter filter;
  filter.label = "main";
  filter.method = [](const std::string& name) { return name == "fam.A.one"; };
  filter.metric = [](const std::string& name) { return name == "latency"; };
  const auto series = store.series(filter);
  ASSERT_EQ(series.size(), 1U);
  EXPECT_EQ(series[0].system_name, "box");
  EXPECT_EQ(series[0].image, "perfzero:cpu");
  EXPECT_EQ(series[0].unit, "ms");
  EXPECT_EQ(series[0].direction, Direction::lower_is_better);
  ASSERT_EQ(series[0].points.size(), 3U);
  EXPECT_EQ(series[0].points[0].execution_id, "run-2");  // the oldest
  EXPECT_EQ(series[0].points[0].commit, "c2");
  EXPECT_EQ(series[0].points[2].execution_id, "run-0");
  EXPECT_DOUBLE_EQ(series[0].points[0].value, 10.0);  // trial 1 only: 2 disturbed, 3 failed
  EXPECT_EQ(series[0].points[0].trials, 1);
  filter.use_flagged = true;  // trials 1 and 2
  EXPECT_DOUBLE_EQ(store.series(filter)[0].points[0].value, 15.0);
  EXPECT_EQ(store.series(filter)[0].points[0].trials, 2);
  filter.since = 2500;
  EXPECT_EQ(store.series(filter)[0].points.size(), 1U);
  // A run whose every succeeded trial was disturbed is no point, unless flagged trials are asked for.
  results::Run busy = make_run("busy", "main", 4000);
  for (auto& c : busy.cases) {
    for (auto& t : c.trials) t.flags = {"host_busy"};
  }
  store.ingest(busy);
  EXPECT_EQ(store.series(filter)[0].points.size(), 2U);
  filter.use_flagged = false;
  EXPECT_EQ(store.series(filter)[0].points.size(), 1U);
  const auto listed = store.list({"main", 10});
  ASSERT_EQ(listed[1].execution_id, "run-0");  // after "busy", the newest
  EXPECT_EQ(listed[1].commit, "c0");
  EXPECT_EQ(listed[1].branch, "main");
}

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

TEST(HistoryStore, ADamagedDocumentIsOneErrorNamingTheRunNeverACrash) {
  TempDir dir;
  const auto db = dir.path() / "h.sqlite";
  Store store(db.string());
  store.ingest(make_run("run-1", "main", 1000));
  for (const char* damage : {"X'00ff00'", "X''", "'{\"cases\": 5}'"}) {
    open_sqlite(db.string())->exec(std::string("UPDATE run_documents SET document = ") + damage);
    try {
      (void)store.show("run-1");
      FAIL() << "showed a damaged run: " << damage;
    } catch (const HistoryError& e) {
      EXPECT_NE(std::string(e.what()).find("run run-1"), std::string::npos) << e.what();
    }
  }
  // A document of valid zlib holding JSON of the wrong shape is refused likewise.
  open_sqlite(db.string())
      ->exec("UPDATE run_documents SET document = $1",
             {SqlBlob{deflate_text(R"({"info": {"execution_id": 7}, "headers": [], "cases": []})")}});
  EXPECT_THROW((void)store.show("run-1"), HistoryError);
  // So is one whose headers do not match its cases, or whose header is not a case's.
  for (const char* doc :
       {R"({"info": {}, "headers": [], "cases": [[]]})", R"({"info": {}, "headers": [7], "cases": [[]]})"}) {
    open_sqlite(db.string())->exec("UPDATE run_documents SET document = $1", {SqlBlob{deflate_text(doc)}});
    EXPECT_THROW((void)store.show("run-1"), HistoryError) << doc;
  }
}

// The site reads thousands of documents, decoded on other threads: the runs still come in order,
// oldest first; a damaged one is a problem at its place, and the samplers are left out when asked.
TEST(HistoryStore, ForEachRunGivesRunsOldestFirstWithProblemsInPlaceAndSamplersOnlyWhenAsked) {
  TempDir dir;
  const auto db = dir.path() / "h.sqlite";
  Store store(db.string());
  for (int i = 0; i < 40; ++i) {
    results::Run run = make_run(fmt::format("run-{:02}", i), i % 2 == 0 ? "main" : "nightly", 5000.0 - 100 * i);
    for (auto& c : run.cases) {
      for (auto& t : c.trials) t.samplers = {{"cpu_clock", {{"mean", 1.5 * i}}}};
    }
    store.ingest(run);  // newest first
  }
  open_sqlite(db.string())
      ->exec(
          "UPDATE run_documents SET document = $1 WHERE run_id = (SELECT id FROM runs WHERE execution_id = "
          "'run-10')",
          {SqlBlob{std::string("\x00\xff", 2)}});
  for (const auto detail : {TrialDetail::whole, TrialDetail::without_samplers}) {
    std::vector<std::string> order;
    std::vector<std::string> problems;
    store.for_each_run(
        "", std::nullopt, [](const RunRow& row) { return row.execution_id != "run-05"; },
        [&](const RunRow& row, results::Run&& run, const std::string& problem) {
          order.push_back(row.execution_id);
          if (!problem.empty()) {
            problems.push_back(problem);
            EXPECT_TRUE(run.cases.empty());
            return;
          }
          EXPECT_EQ(run.info.execution_id, row.execution_id);
          EXPECT_EQ(run.status, "completed");
          ASSERT_EQ(run.cases.size(), 2U);
          ASSERT_EQ(run.cases[0].trials.size(), 3U);
          const auto& trial = run.cases[0].trials[0];
          EXPECT_EQ(trial.metrics.size(), 2U);
          EXPECT_DOUBLE_EQ(trial.wall_time, 1.5);
          if (detail == TrialDetail::whole) {
            EXPECT_EQ(trial.samplers.dump(), run.cases[0].trials[1].samplers.dump());
            EXPECT_TRUE(trial.samplers.contains("cpu_clock")) << trial.samplers.dump();
          } else {
            EXPECT_TRUE(trial.samplers.empty()) << trial.samplers.dump();
          }
        },
        detail);
    ASSERT_EQ(order.size(), 39U);
    EXPECT_EQ(order.front(), "run-39");  // the oldest
    EXPECT_EQ(order.back(), "run-00");
    EXPECT_TRUE(std::is_sorted(order.rbegin(), order.rend()));
    ASSERT_EQ(problems.size(), 1U);
    EXPECT_NE(problems[0].find("run run-10"), std::string::npos) << problems[0];
  }
}

// Series are read as narrow rows and grouped in perfzero: they come in byte order of label,
// configuration, case and metric, each oldest first, equal times in the order they were stored; a
// unit that changed between runs leaves one series named as its oldest point has it.
TEST(HistoryStore, SeriesComeInByteOrderAndAUnitChangeDoesNotSplitOne) {
  TempDir dir;
  const auto db = dir.path() / "h.sqlite";
  Store store(db.string());
  for (int i = 0; i < 4; ++i) {
    // Two runs at each time; the later two measure latency in seconds.
    const std::string unit = i < 2 ? "ms" : "s";
    results::Run run = make_run(fmt::format("run-{}", i), "main", i < 2 ? 1000.0 : 2000.0);
    for (auto& c : run.cases) {
      for (auto& t : c.trials) t.metrics[0].unit = unit;
    }
    store.ingest(run);
  }
  store.ingest(make_run("z-run", "Zeta", 500));  // "Z" sorts before "m" byte-wise
  const auto all = store.series({});
  std::vector<std::string> keys;
  for (const auto& s : all) keys.push_back(fmt::format("{}|{}|{}", s.label, s.case_name, s.metric));
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end())) << fmt::format("{}", fmt::join(keys, ", "));
  ASSERT_EQ(all.size(), 12U);  // 2 labels x 2 cases x (latency, rate, wall_time)
  EXPECT_EQ(all.front().label, "Zeta");
  EXPECT_EQ(all.back().case_name, "fam.A.two[n=\xEF\xBF\xBD]");  // stored as valid UTF-8
  SeriesFilter filter;
  filter.label = "main";
  filter.method = [](const std::string& name) { return name == "fam.A.one"; };
  filter.metric = [](const std::string& name) { return name == "latency"; };
  const auto latency = store.series(filter);
  ASSERT_EQ(latency.size(), 1U);
  EXPECT_EQ(latency[0].unit, "ms");  // the oldest point's
  ASSERT_EQ(latency[0].points.size(), 4U);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(latency[0].points[i].execution_id, fmt::format("run-{}", i));
}

// The site's reads see one state of the database: a run ingested by another perfzero meanwhile (WAL:
// the ingest is not blocked) shows only to reads after the snapshot ends.
TEST(HistoryStore, AReadSnapshotSeesNoIngestMadeMeanwhileAndDoesNotBlockIt) {
  TempDir dir;
  const auto db = (dir.path() / "h.sqlite").string();
  Store reader(db);
  reader.ingest(make_run("run-1", "main", 1000));
  {
    const Store::ReadSnapshot snapshot(reader);
    EXPECT_EQ(reader.list({"", 10}).size(), 1U);
    Store writer(db);
    EXPECT_EQ(writer.ingest(make_run("run-2", "main", 2000)), Store::Ingested::stored);
    EXPECT_EQ(reader.list({"", 10}).size(), 1U);
    EXPECT_EQ(reader.series({}).front().points.size(), 1U);
  }
  EXPECT_EQ(reader.list({"", 10}).size(), 2U);
}

TEST(HistoryStore, AnIdPrefixResolvesWhenUniqueAndListsTheCandidatesWhenNot) {
  TempDir dir;
  Store store((dir.path() / "h.sqlite").string());
  for (const char* id : {"20261125T100000Z-aaaaaa", "20261125T100000Z-aabbbb", "20261126T090000Z-cccccc", "50%_off"}) {
    store.ingest(make_run(id, "main", 1000));
  }
  EXPECT_EQ(store.resolve_id("20261126").matches, std::vector<std::string>{"20261126T090000Z-cccccc"});
  EXPECT_EQ(store.resolve_id("20261125T100000Z-aa").matches.size(), 2U);
  EXPECT_EQ(store.resolve_id("20261125T100000Z-aab").matches.size(), 1U);
  EXPECT_TRUE(store.resolve_id("2027").matches.empty());
  // Not LIKE: % and _ are themselves.
  EXPECT_TRUE(store.resolve_id("5_%").matches.empty());
  EXPECT_EQ(store.resolve_id("50%").matches.size(), 1U);
  EXPECT_EQ(store.resolve_id("20261125T100000Z-aaaaaa").matches.size(), 1U);
}

TEST(HistoryStore, PruneKeepsTheNewestRunsOfEachLabelAndAllTheirRows) {
  TempDir dir;
  const auto db = dir.path() / "h.sqlite";
  Store store(db.string());
  for (int i = 0; i < 5; ++i) store.ingest(make_run(fmt::format("main-{}", i), "main", 1000.0 + i));
  for (int i = 0; i < 2; ++i) store.ingest(make_run(fmt::format("pr-{}", i), "pr", 1000.0 + i));
  EXPECT_EQ(store.prune("", 2), (std::vector<std::string>{"main-0", "main-1", "main-2"}));
  EXPECT_EQ(count(db, "runs"), 4);
  EXPECT_EQ(count_where(db, "runs", "execution_label = 'main'"), 2);
  // Nothing of a pruned run is left behind.
  EXPECT_EQ(count(db, "run_documents"), 4);
  EXPECT_EQ(count(db, "series_points"), 4 * 6);
  EXPECT_EQ(store.prune("pr", 1), std::vector<std::string>{"pr-0"});
  EXPECT_TRUE(store.prune("pr", 1).empty());
}

}  // namespace
}  // namespace perfzero::history
