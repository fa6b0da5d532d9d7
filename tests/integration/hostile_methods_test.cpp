// Methods that turn on the harness (issue 20, item 1), on the real binary: a method that removes its
// trial directory, puts a link where it was (or where its method's directory was), or writes into the
// run's journal fails only its own trial; the harness writes nothing outside the run, and the run
// stays readable by compare, report and history. Also: an unfinished run is not ingested silently.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <thread>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::hostile_methods_test {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(dir)) ++n;
  return n;
}

// A suite whose first method does `script` to its own directories, then a well-behaved method.
fs::path suite_with(const TempDir& dir, const std::string& script) {
  return dir.write("s.yaml", fmt::format(R"yaml(
methods:
  - {{name: hostile, command: [/bin/sh, -c, '{}'], output: none}}
  - {{name: after, command: [/bin/true], output: none}}
)yaml",
                                         script));
}

const nlohmann::json& trial_of(const nlohmann::json& summary, const std::string& method) {
  for (const auto& m : summary["methods"]) {
    if (m["name"] == method) return m["trials"][0];
  }
  throw std::runtime_error("no method " + method);
}

TEST(HostileMethods, ALinkInPlaceOfTheTrialDirectoryFailsThatTrialAndNothingIsWrittenThrough) {
  TempDir dir;
  const fs::path outside = dir.path() / "outside";
  fs::create_directories(outside);
  const auto suite = suite_with(dir, "rm -rf \"$PERFZERO_TRIAL_DIR\"; ln -s \"$OUTSIDE\" \"$PERFZERO_TRIAL_DIR\"");
  ::setenv("OUTSIDE", outside.c_str(), 1);
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ::unsetenv("OUTSIDE");
  EXPECT_EQ(f.exit_code, 1) << f.err;  // a trial failed; the run went on and wrote everything
  EXPECT_EQ(entries_in(outside), 0U) << "the harness wrote through the link";
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  const auto& hostile = trial_of(summary, "hostile");
  EXPECT_EQ(hostile["outcome"], "failed");
  EXPECT_TRUE(contains(hostile["detail"], "replaced its trial directory with a symbolic link to " + outside.string()))
      << hostile.dump();
  EXPECT_EQ(trial_of(summary, "after")["outcome"], "succeeded");
  // Its report is in a real trial directory again.
  const fs::path trial = dir.path() / "run" / "hostile" / "trial_1";
  EXPECT_FALSE(fs::is_symlink(trial));
  EXPECT_TRUE(fs::is_regular_file(trial / "perfzero_summary.json"));
}

// The trial's log is cut past --max_log_bytes once the method has ended: a method that put a link
// to another directory, holding a large perfzero.log of its own, in place of its trial directory
// must not have that file cut (the guard makes the directory real again before the log is looked at).
TEST(HostileMethods, ALinkInPlaceOfTheTrialDirectoryDoesNotGetAnotherLogCut) {
  TempDir dir;
  const fs::path outside = dir.path() / "outside";
  fs::create_directories(outside);
  const std::string big(200'000, 'x');
  dir.write("outside/perfzero.log", big);
  const auto suite = suite_with(dir, "rm -rf \"$PERFZERO_TRIAL_DIR\"; ln -s \"$OUTSIDE\" \"$PERFZERO_TRIAL_DIR\"");
  ::setenv("OUTSIDE", outside.c_str(), 1);
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run", "--max_log_bytes=2000"}, dir.path());
  ::unsetenv("OUTSIDE");
  EXPECT_EQ(f.exit_code, 1) << f.err;
  EXPECT_EQ(fs::file_size(outside / "perfzero.log"), big.size()) << "the harness cut a log through the link";
  EXPECT_EQ(entries_in(outside), 1U);
}

TEST(HostileMethods, RemovingItsTrialDirectoryFailsOnlyThatTrialNotTheRun) {
  TempDir dir;
  const auto suite = suite_with(dir, "rm -rf \"$PERFZERO_TRIAL_DIR\"");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;  // was 4: the run stopped
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  EXPECT_EQ(summary["status"], "completed");
  EXPECT_TRUE(contains(trial_of(summary, "hostile")["detail"], "removed its trial directory"));
  EXPECT_EQ(trial_of(summary, "after")["outcome"], "succeeded");
}

TEST(HostileMethods, ALinkInPlaceOfItsMethodsDirectoryIsNotFollowedEither) {
  TempDir dir;
  const fs::path outside = dir.path() / "outside";
  fs::create_directories(outside);
  const auto suite = suite_with(dir, "d=$(dirname \"$PERFZERO_TRIAL_DIR\"); rm -rf \"$d\"; ln -s \"$OUTSIDE\" \"$d\"");
  ::setenv("OUTSIDE", outside.c_str(), 1);
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ::unsetenv("OUTSIDE");
  EXPECT_EQ(f.exit_code, 1) << f.err;
  EXPECT_EQ(entries_in(outside), 0U);
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  EXPECT_TRUE(
      contains(trial_of(summary, "hostile")["detail"], "replaced the directory hostile above its trial directory"))
      << trial_of(summary, "hostile").dump();
}

// Issue 36: what the method appends is cut off before the harness's next line, so the run reads clean.
TEST(HostileMethods, LinesAMethodAppendsToTheJournalLeaveTheRunReadable) {
  TempDir dir;
  const auto suite = suite_with(
      dir,
      "printf \"junk\\n{\\\"event\\\":\\\"trial\\\",\\\"case\\\":\\\"after\\\",\\\"seq\\\":99,\\\"trial\\\":{}}\\n\" "
      ">> "
      "\"$PERFZERO_RUN_DIR/journal.ndjson\"");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  EXPECT_EQ(f.exit_code, 0) << f.err;
  const auto run = (dir.path() / "run").string();
  const auto compared = run_perfzero({"compare", run, run, "--use_flagged", "--pass_on=undecided"}, dir.path());
  EXPECT_EQ(compared.exit_code, 0) << compared.err;
  EXPECT_FALSE(contains(compared.err, "not a line perfzero wrote")) << compared.err;
  const auto reported = run_perfzero({"report", run, "--no_catalog", "--out", (dir.path() / "r").string()}, dir.path());
  EXPECT_EQ(reported.exit_code, 0) << reported.err;
  const auto ingested =
      run_perfzero({"history", "ingest", run, "--db", (dir.path() / "h.sqlite").string()}, dir.path());
  EXPECT_EQ(ingested.exit_code, 0) << ingested.err;
  EXPECT_FALSE(contains(ingested.err, "journal.ndjson:")) << ingested.err;
}

TEST(HostileMethods, ARunStillRunningIsIngestedOnlyWhenAskedAndCompletedLater) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"(
defaults: {trials: 4}
methods: [{name: nap, command: [/bin/sleep, "0.3"], output: none}]
)");
  RunningPerfzero p({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  // Kill it once at least one trial is in the journal.
  for (int i = 0; i < 200 && !contains(slurp(dir.path() / "run" / "journal.ndjson"), "\"trial\""); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  p.signal(SIGKILL);
  p.wait();
  const auto db = (dir.path() / "h.sqlite").string();
  const auto refused = run_perfzero({"history", "ingest", "run", "--db", db}, dir.path());
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_TRUE(contains(refused.err, "is still running, or was killed")) << refused.err;
  const auto partial = run_perfzero({"history", "ingest", "run", "--db", db, "--partial"}, dir.path());
  EXPECT_EQ(partial.exit_code, 0) << partial.err;
  EXPECT_TRUE(contains(partial.out, "stored ")) << partial.out;
  const auto resumed = run_perfzero({"--config=" + suite.string(), "--output_dir=run", "--resume"}, dir.path());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const auto completed = run_perfzero({"history", "ingest", "run", "--db", db}, dir.path());
  EXPECT_EQ(completed.exit_code, 0) << completed.err;
  EXPECT_TRUE(contains(completed.out, "replacing its unfinished copy")) << completed.out;
  const auto list =
      nlohmann::json::parse(run_perfzero({"history", "list", "--db", db, "--format=json"}, dir.path()).out);
  ASSERT_EQ(list.size(), 1U);
  EXPECT_EQ(list[0]["trials"], 4);
  EXPECT_EQ(list[0]["status"], "completed");
}

}  // namespace
}  // namespace perfzero::testing::hostile_methods_test
