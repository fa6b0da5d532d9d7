// The results history on a real PostgreSQL server the test starts itself (postgres_server.hpp), with
// the real binary: ingest, list, show, compare --history, and kill -9 during ingest (docs/history.md).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <thread>

#include "../unit/temp_dir.hpp"
#include "ingest_kill.hpp"
#include "perfzero_runner.hpp"
#include "planted_history.hpp"
#include "postgres_server.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::history_postgresql_test {
namespace {

class HistoryPostgres : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = std::make_unique<PostgresServer>(); }
  static void TearDownTestSuite() { server_.reset(); }
  void SetUp() override { PERFZERO_NEED_POSTGRES(*server_); }

  nlohmann::json list(const std::filesystem::path& scratch) { return history_list(server_->url(), scratch); }

  static inline std::unique_ptr<PostgresServer> server_;
};

std::string sleep_suite(int ms, int trials) {
  return fmt::format(R"(
defaults: {{trials: {}, warmup_trials: 0}}
methods:
  - name: sleep
    command: ["{{bindir}}/perfzero-worker-core", sanity.Sanity.benchmark_sleep, '{{"ms": {}}}']
)",
                     trials, ms);
}

// Another execution id for a copy of a run directory.
void copy_run(const std::filesystem::path& from, const std::filesystem::path& to, const std::string& id) {
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
  std::string text = slurp(to / "run.json");
  const std::string old_id = read_json(to / "run.json").at("execution_id");
  for (auto at = text.find(old_id); at != std::string::npos; at = text.find(old_id, at + id.size())) {
    text.replace(at, old_id.size(), id);
  }
  std::ofstream(to / "run.json", std::ios::trunc) << text;
}

// One test for the round trip and the comparison, as they share the database's state.
TEST_F(HistoryPostgres, RunHistoryIngestListShowAndCompare) {
  TempDir dir;
  const auto base = dir.write("base.yaml", sleep_suite(50, 3));
  const auto slow = dir.write("slow.yaml", sleep_suite(150, 3));
  for (int i = 0; i < 4; ++i) {
    const auto f = run_perfzero({"--config=" + base.string(), fmt::format("--output_dir=main{}", i),
                                 "--execution_label=pg-main", "--history=" + server_->url()},
                                dir.path() / "w");
    ASSERT_EQ(f.exit_code, 0) << f.err;
    EXPECT_NE(f.out.find("stored in the history postgresql://perfzero@/postgres"), std::string::npos) << f.out;
  }
  const auto again = run_perfzero({"history", "ingest", "main0", "--db=" + server_->url()}, dir.path() / "w");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out.rfind("already stored ", 0), 0U) << again.out;

  std::size_t mine = 0;
  std::string id;
  for (const auto& r : list(dir.path() / "w")) {
    if (r["execution_label"] != "pg-main") continue;
    ++mine;
    EXPECT_EQ(r["trials"], 3);
    id = r["execution_id"];
  }
  EXPECT_EQ(mine, 4U);
  const auto shown = run_perfzero({"history", "show", id, "--db=" + server_->url(), "--format=json"}, dir.path() / "w");
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_EQ(nlohmann::json::parse(shown.out)["cases"][0]["trials"].size(), 3U);

  ASSERT_EQ(run_perfzero({"--config=" + slow.string(), "--output_dir=slow"}, dir.path() / "w").exit_code, 0);
  const auto caught = run_perfzero(
      {"compare", "--history=" + server_->url(), "--label=pg-main", "slow", "--use_flagged"}, dir.path() / "w");
  EXPECT_EQ(caught.exit_code, 1) << caught.out << caught.err;
  // Room for the load on a shared machine (history_test.cpp says more).
  const auto same = run_perfzero(
      {"compare", "--history=" + server_->url(), "--label=pg-main", "main3", "--min_change=25", "--use_flagged"},
      dir.path() / "w");
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
}

TEST_F(HistoryPostgres, AKillNineDuringIngestLeavesNoHalfRun) {
  TempDir dir;
  const auto suite = dir.write("s.yaml",
                               "defaults: {trials: 60, warmup_trials: 0}\nmethods:\n  - {method: "
                               "sanity.Sanity.benchmark_noop}\n");
  ASSERT_EQ(run_perfzero({"--config=" + suite.string(), "--output_dir=base"}, dir.path() / "w").exit_code, 0);
  std::vector<std::filesystem::path> runs;
  for (int i = 0; i < 40; ++i) {
    runs.push_back(dir.path() / "w" / fmt::format("copy{}", i));
    copy_run(dir.path() / "w" / "base", runs.back(), fmt::format("pg-copy-{}", i));
  }
  const IngestKills kills = kill_ingest_at_several_moments(server_->url(), runs, 60, dir.path() / "w");
  expect_ingesting_again_completes(server_->url(), runs, 60, kills, dir.path() / "w");
  if (!kills.missed.empty()) {
    GTEST_SKIP() << "no kill -9 landed mid-ingest (the machine's timing) at "
                 << fmt::format("{}", fmt::join(kills.missed, " "));
  }
}

// History v2 against PostgreSQL (docs/history.md): the series points, change points, id prefixes,
// the source columns and prune, on the planted history of history_changes_test.cpp.
TEST_F(HistoryPostgres, ChangePointsPrefixesAndPrune) {
  TempDir dir;
  const auto dirs = planted_history(dir, 20, 10, "pg-v2");
  ASSERT_EQ(ingest(dirs, server_->url(), dir.path()).exit_code, 0);
  const auto found = run_perfzero({"history", "changes", "--db=" + server_->url(), "--label=pg-v2",
                                   "--metric=^slept_ms$", "--format=json", "--junit=changes.xml"},
                                  dir.path());
  ASSERT_EQ(found.exit_code, 0) << found.err;
  const auto doc = nlohmann::json::parse(found.out);
  ASSERT_EQ(doc["changes"].size(), 1U) << found.out;
  EXPECT_EQ(doc["changes"][0]["execution_id"], "pg-v2-run10-k");
  EXPECT_EQ(doc["changes"][0]["commit"], kCommitB);
  EXPECT_EQ(doc["changes"][0]["verdict"], "slower");
  const auto shown =
      run_perfzero({"history", "show", "pg-v2-run07", "--db=" + server_->url(), "--format=json"}, dir.path());
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  const auto run = nlohmann::json::parse(shown.out);
  EXPECT_EQ(run["run"]["execution_id"], "pg-v2-run07-h");
  EXPECT_EQ(run["run"]["source"]["commit"], kCommitA);
  EXPECT_EQ(run["cases"][0]["trials"].size(), 6U) << "the run document, decompressed from BYTEA";
  // The site from PostgreSQL: its reads in one REPEATABLE READ, READ ONLY transaction.
  const auto site = run_perfzero({"history", "site", "--db=" + server_->url(), "--out=site"}, dir.path());
  ASSERT_EQ(site.exit_code, 0) << site.err;
  std::ifstream index(dir.path() / "site" / "index.html");
  const std::string html((std::istreambuf_iterator<char>(index)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("pg-v2"), std::string::npos);
  EXPECT_NE(html.find("slower"), std::string::npos) << "the change point at commit B, as `changes` found it";
  const auto ambiguous = run_perfzero({"history", "show", "pg-v2-run1", "--db=" + server_->url()}, dir.path());
  EXPECT_EQ(ambiguous.exit_code, 2) << ambiguous.err;
  const auto pruned =
      run_perfzero({"history", "prune", "--keep_last=5", "--label=pg-v2", "--db=" + server_->url()}, dir.path());
  ASSERT_EQ(pruned.exit_code, 0) << pruned.err;
  EXPECT_NE(pruned.out.find("pruned 15 run(s)"), std::string::npos) << pruned.out;
  int left = 0;
  for (const auto& r : list(dir.path())) left += r["execution_label"] == "pg-v2" ? 1 : 0;
  EXPECT_EQ(left, 5);
}

}  // namespace
}  // namespace perfzero::testing::history_postgresql_test
