// The history's reads for the site and `history changes` on a real SQLite file: series, every run's
// document in order, and a read snapshot.
#include "history/store.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "history_store_runs.hpp"
#include "temp_dir.hpp"

namespace perfzero::history {
namespace {

using test_runs::count;
using test_runs::count_where;
using test_runs::make_run;
using testing::TempDir;

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

}  // namespace
}  // namespace perfzero::history
