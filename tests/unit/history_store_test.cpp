// The results history on a real SQLite file (docs/history.md): schema, idempotent and transactional
// ingest, list, show, prune and the runs `compare --history` reads.
#include "history/store.hpp"

#include <sys/stat.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "history/compressed_text.hpp"
#include "history_store_runs.hpp"
#include "temp_dir.hpp"

namespace perfzero::history {
namespace {

using test_runs::count;
using test_runs::count_where;
using test_runs::make_run;
using testing::TempDir;

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
