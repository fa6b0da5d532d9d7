// `perfzero history changes --fail_on_change` on the real binary (docs/history.md): the gate's exit
// status through compare/gate's one policy: 1 for a series slower at its latest change point, 5 for
// what cannot be judged (the flags left every run out, a series too short to split), 0 otherwise;
// --pass_on, and the left-out counts in the JSON; history show's --use_flagged.
#include <gtest/gtest.h>

#include <fstream>

#include "../unit/scoped_env.hpp"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"
#include "planted_history.hpp"

namespace perfzero::testing::history_changes_gate_test {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A planted history of `count` runs (a 20 % step at `step`) in its own database.
std::string planted_db(const TempDir& dir, int count, int step, bool all_flagged = false) {
  const auto dirs = planted_history(dir, count, step);
  if (all_flagged) {
    for (const auto& d : dirs) {
      std::string journal = slurp(dir.path() / d / "journal.ndjson");
      for (auto at = journal.find("\"flags\":[]"); at != std::string::npos; at = journal.find("\"flags\":[]", at)) {
        journal.replace(at, 10, "\"flags\":[\"host_busy\"]");
      }
      std::ofstream(dir.path() / d / "journal.ndjson", std::ios::trunc) << journal;
    }
  }
  const std::string db = (dir.path() / "h.sqlite").string();
  EXPECT_EQ(ingest(dirs, db, dir.path()).exit_code, 0);
  return db;
}

Finished changes(const TempDir& dir, const std::string& db, std::vector<std::string> more) {
  std::vector<std::string> args = {"history", "changes", "--db=" + db};
  args.insert(args.end(), more.begin(), more.end());
  return run_perfzero(args, dir.path());
}

TEST(HistoryChangesGate, ASlowerLatestChangeFailsAndAQuietHistoryPasses) {
  const ScopedEnv no_ci{{"GITHUB_SHA", ""}, {"CI_COMMIT_SHA", ""}, {"GIT_COMMIT", ""}};
  TempDir stepped;
  const std::string db = planted_db(stepped, 10, 5);
  const auto report = changes(stepped, db, {});
  EXPECT_EQ(report.exit_code, 0) << "without --fail_on_change it is a report: " << report.out;
  const auto failed = changes(stepped, db, {"--fail_on_change"});
  EXPECT_EQ(failed.exit_code, 1) << failed.out << failed.err;
  EXPECT_TRUE(has(failed.out, "gate: failed (exit 1): ")) << failed.out;
  EXPECT_TRUE(has(failed.out, "series slower at their latest change point")) << failed.out;
  // --pass_on accepts what cannot be judged, never a slowdown.
  EXPECT_EQ(changes(stepped, db, {"--fail_on_change", "--pass_on=undecided,missing"}).exit_code, 1);
  TempDir quiet;
  const std::string quiet_db = planted_db(quiet, 8, 8);
  const auto passed = changes(quiet, quiet_db, {"--fail_on_change", "--format=markdown"});
  EXPECT_EQ(passed.exit_code, 0) << passed.out << passed.err;
  EXPECT_TRUE(has(passed.out, "gate: passed (exit 0)")) << passed.out;
}

TEST(HistoryChangesGate, EveryRunLeftOutByTheFlagsIsUndecidedWithItsCountsInTheJson) {
  const ScopedEnv no_ci{{"GITHUB_SHA", ""}, {"CI_COMMIT_SHA", ""}, {"GIT_COMMIT", ""}};
  TempDir dir;
  const std::string db = planted_db(dir, 8, 4, true);
  const auto undecided = changes(dir, db, {"--fail_on_change", "--format=json"});
  EXPECT_EQ(undecided.exit_code, 5) << undecided.out << undecided.err;
  const auto out = nlohmann::json::parse(undecided.out);
  EXPECT_EQ(out.at("series"), 0);
  EXPECT_EQ(out.at("left_out").at("runs"), 8);
  EXPECT_EQ(out.at("left_out").at("trials"), 8 * 6);
  EXPECT_GT(out.at("left_out").at("series_emptied").get<int>(), 1);
  EXPECT_TRUE(has(out.at("left_out").at("why").get<std::string>(), "disturbed")) << undecided.out;
  EXPECT_EQ(out.at("gate").at("status"), "undecided");
  EXPECT_EQ(out.at("gate").at("exit_status"), 5);
  EXPECT_GT(out.at("gate").at("left_empty").get<int>(), 0);
  EXPECT_TRUE(has(undecided.err, "8 run(s) left out")) << undecided.err;
  // Text says why, and what accepts it.
  const auto text = changes(dir, db, {"--fail_on_change"});
  EXPECT_EQ(text.exit_code, 5);
  EXPECT_TRUE(has(text.out, "left empty by the flags")) << text.out;
  EXPECT_TRUE(has(text.out, "--pass_on=undecided accepts them")) << text.out;
  EXPECT_EQ(changes(dir, db, {"--fail_on_change", "--pass_on=missing"}).exit_code, 5);
  EXPECT_EQ(changes(dir, db, {"--fail_on_change", "--pass_on=undecided"}).exit_code, 0);
  // --use_flagged judges the disturbed trials: the planted step is found again.
  EXPECT_EQ(changes(dir, db, {"--fail_on_change", "--use_flagged"}).exit_code, 1);
  // history show says per metric what the flags left out of its median.
  const auto shown = run_perfzero({"history", "show", "--db=" + db, "run00-a"}, dir.path());
  EXPECT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_TRUE(has(shown.out, "median -")) << shown.out;
  EXPECT_TRUE(has(shown.out, "(0 trials, 6 disturbed left out)")) << shown.out;
  EXPECT_TRUE(has(shown.out, "--use_flagged judges them")) << shown.out;
  const auto all = run_perfzero({"history", "show", "--db=" + db, "--use_flagged", "run00-a"}, dir.path());
  EXPECT_TRUE(has(all.out, "(6 trials, 6 disturbed among them)")) << all.out;
  EXPECT_FALSE(has(all.out, "median -")) << all.out;
}

TEST(HistoryChangesGate, ASeriesTooShortToSplitOrNoSeriesAtAllIsUndecided) {
  const ScopedEnv no_ci{{"GITHUB_SHA", ""}, {"CI_COMMIT_SHA", ""}, {"GIT_COMMIT", ""}};
  TempDir dir;
  const std::string db = planted_db(dir, 3, 3);
  const auto short_series = changes(dir, db, {"--fail_on_change"});
  EXPECT_EQ(short_series.exit_code, 5) << short_series.out;
  EXPECT_TRUE(has(short_series.out, "too short to split (fewer than 4 runs)")) << short_series.out;
  const auto nothing = changes(dir, db, {"--fail_on_change", "--method=^no_such_method$"});
  EXPECT_EQ(nothing.exit_code, 5) << nothing.out;
  EXPECT_TRUE(has(nothing.out, "no series to judge")) << nothing.out;
  EXPECT_EQ(changes(dir, db, {"--fail_on_change", "--pass_on=undecided", "--method=^no_such_method$"}).exit_code, 0);
  const auto stray = changes(dir, db, {"--pass_on=undecided"});
  EXPECT_EQ(stray.exit_code, 2);
  EXPECT_TRUE(has(stray.err, "only with --fail_on_change")) << stray.err;
  EXPECT_EQ(changes(dir, db, {"--fail_on_change", "--pass_on=everything"}).exit_code, 2);
}

}  // namespace
}  // namespace perfzero::testing::history_changes_gate_test
