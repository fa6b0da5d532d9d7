// The results history on a real SQLite file (docs/history.md): schema and migrations, idempotent
// and transactional ingest, list, show and the runs `compare --history` reads.
#include "history/store.hpp"

#include <sqlite3.h>
#include <sys/stat.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

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
  EXPECT_EQ(count(dir.path() / "h.sqlite", "trials"), 8);  // 2 cases x (3 trials + 1 warm-up)

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

TEST(HistoryStore, LabelRunsHoldTheSucceededTrialsOfTheLastRuns) {
  TempDir dir;
  Store store((dir.path() / "h.sqlite").string());
  for (int i = 0; i < 5; ++i) store.ingest(make_run("main-" + std::to_string(i), "main", 1000.0 + i));
  store.ingest(make_run("other", "dev", 5000));
  const auto runs = store.label_runs("main", 3, "main-4");
  ASSERT_EQ(runs.size(), 3U);
  EXPECT_EQ(runs[0].info.execution_id, "main-3");  // newest first, the candidate left out
  EXPECT_EQ(runs[2].info.execution_id, "main-1");
  ASSERT_EQ(runs[0].cases.size(), 2U);
  const auto& trials = runs[0].cases[0].trials;
  ASSERT_EQ(trials.size(), 2U);  // the failed third trial and the warm-up are not measurements
  EXPECT_EQ(trials[1].wall_time, 2.5);
  ASSERT_EQ(trials[1].metrics.size(), 2U);
  EXPECT_EQ(trials[1].metrics[0].name, "latency");
  EXPECT_EQ(trials[1].metrics[0].direction, Direction::lower_is_better);
}

TEST(HistoryStore, AFailureMidIngestLeavesNoHalfRun) {
  TempDir dir;
  const auto db = (dir.path() / "h.sqlite").string();
  Store store(db);
  // A real failure inside the database, after the run, its cases and some trials were inserted.
  open_sqlite(db)->exec(
      "CREATE TRIGGER refuse_boom BEFORE INSERT ON metrics WHEN NEW.name = 'boom' "
      "BEGIN SELECT RAISE(ABORT, 'refused'); END");
  results::Run run = make_run("half", "main", 1000);
  run.cases[1].trials[1].metrics[0].name = "boom";
  EXPECT_THROW(store.ingest(run), HistoryError);
  for (const char* table : {"runs", "cases", "trials", "metrics"}) EXPECT_EQ(count(db, table), 0) << table;
  // The store is usable afterwards, and the same run goes in once it can.
  run.cases[1].trials[1].metrics[0].name = "fine";
  EXPECT_EQ(store.ingest(run), Store::Ingested::stored);
  EXPECT_EQ(count(db, "trials"), 8);
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
