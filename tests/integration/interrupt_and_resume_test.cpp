// A stopped run writes what it has, leaves no process, and --resume finishes it.
#include <gtest/gtest.h>

#include <fstream>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::interrupt_and_resume_test {
namespace {

bool wait_for(const std::function<bool()>& condition, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(Interrupt, SigintStopsTheTreeWritesTheSummaryAndResumeFinishes) {
  TempDir dir;
  const auto out = dir.path() / "run";
  const auto suite = dir.write("long.yaml", R"(
methods:
  - sanity.Sanity.benchmark_noop
  - method: sanity.Sanity.benchmark_sleep
    params: {ms: 30000}
  - sanity.Sanity.benchmark_spin
)");
  RunningPerfzero running({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  const auto sleep_dir = out / "sanity.Sanity.benchmark_sleep_ms_30000_" / "trial_1";
  ASSERT_TRUE(wait_for([&] { return !processes_started_under(sleep_dir).empty(); }, std::chrono::seconds(30)));
  running.signal(SIGINT);
  const auto f = running.wait();
  EXPECT_EQ(f.exit_code, 128 + SIGINT) << f.err;
  EXPECT_NE(f.err.find("interrupted by SIGINT"), std::string::npos) << f.err;
  EXPECT_TRUE(processes_started_under(out).empty());
  EXPECT_EQ(read_json(out / "summary.json")["status"], "interrupted");
  EXPECT_EQ(read_json(out / "run.json")["status"], "interrupted");
  EXPECT_TRUE(std::filesystem::exists(out / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json"));
  // The interrupted trial has no report, so --resume runs it again.
  EXPECT_FALSE(std::filesystem::exists(sleep_dir / "perfzero_summary.json"));
  EXPECT_FALSE(std::filesystem::exists(out / "sanity.Sanity.benchmark_spin" / "trial_1")) << "never started";

  // Resume without the long sleep (a different plan, so --force_resume): what was done is kept,
  // the rest runs, and the dropped case stays in the record.
  const auto again = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop,sanity.Sanity.benchmark_spin",
                                   "--output_dir=" + out.string(), "--resume", "--force_resume"},
                                  dir.path() / "second");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("the plan differs from the run's: removed sanity.Sanity.benchmark_sleep[ms=30000]"),
            std::string::npos)
      << again.err;
  EXPECT_NE(again.out.find("sanity.Sanity.benchmark_noop trial 1/1  succeeded  (already reported"), std::string::npos)
      << again.out;
  EXPECT_TRUE(std::filesystem::exists(out / "sanity.Sanity.benchmark_spin" / "trial_1" / "perfzero_summary.json"));
  const auto summary = read_json(out / "summary.json");
  EXPECT_EQ(summary["status"], "completed");
  EXPECT_EQ(summary["methods"][0]["trials"][0]["resumed"], true);
}

TEST(Resume, SkipsTrialsAlreadyReportedAndRunsTheRest) {
  TempDir dir;
  const auto out = dir.path() / "run";
  ASSERT_EQ(run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=2",
                          "--output_dir=" + out.string()},
                         dir.path())
                .exit_code,
            0);
  const auto first_id = read_json(out / "run.json")["execution_id"];
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=3",
                               "--output_dir=" + out.string(), "--resume"},
                              dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_EQ(read_json(out / "run.json")["execution_id"], first_id);
  EXPECT_EQ(std::count(f.out.begin(), f.out.end(), '\n') >= 3, true);
  EXPECT_NE(f.out.find("trial 3/3  succeeded"), std::string::npos) << f.out;
  EXPECT_NE(f.out.find("trial 2/3  succeeded  (already reported"), std::string::npos) << f.out;
  const auto third = read_json(out / "sanity.Sanity.benchmark_noop" / "trial_3" / "perfzero_summary.json");
  EXPECT_EQ(third["execution_id"], first_id);
}

// Trial reports are not synced during a run: the journal is the record (docs/reliability.md). A
// report a power loss took (gone, empty, cut short) is written again from the journal by --resume;
// one that is whole is left as it is.
TEST(Resume, WritesAgainTheReportsACrashLostFromTheJournal) {
  TempDir dir;
  const auto out = dir.path() / "run";
  ASSERT_EQ(run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=4",
                          "--output_dir=" + out.string()},
                         dir.path())
                .exit_code,
            0);
  const auto trial = [&](int n) {
    return out / "sanity.Sanity.benchmark_noop" / ("trial_" + std::to_string(n)) / "perfzero_summary.json";
  };
  const auto original = read_json(trial(2));
  const auto whole = slurp(trial(4));
  std::filesystem::remove(trial(1));
  std::ofstream(trial(2), std::ios::trunc).flush();
  const auto cut = slurp(trial(3));
  std::ofstream(trial(3), std::ios::trunc) << cut.substr(0, cut.size() / 2);
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=4",
                               "--output_dir=" + out.string(), "--resume"},
                              dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  for (int n = 1; n <= 3; ++n) {
    const auto report = read_json(trial(n));
    EXPECT_EQ(report["benchmark_result"]["trial_id"], n);
    EXPECT_EQ(report["benchmark_result"]["succeeded"], true);
  }
  const auto again = read_json(trial(2));
  EXPECT_EQ(again["benchmark_result"]["metrics"], original["benchmark_result"]["metrics"]);
  EXPECT_EQ(again["execution_id"], original["execution_id"]);
  EXPECT_EQ(slurp(trial(4)), whole) << "a whole report is not rewritten";

  // A whole trial directory gone: made again, with its report.
  std::filesystem::remove_all(trial(4).parent_path());
  const auto g = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=4",
                               "--output_dir=" + out.string(), "--resume"},
                              dir.path());
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_EQ(read_json(trial(4))["benchmark_result"]["trial_id"], 4);
}

TEST(OutputDir, TwoRunsNeverShareADirectory) {
  TempDir dir;
  const auto out = dir.path() / "run";
  ASSERT_EQ(
      run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=" + out.string()}, dir.path())
          .exit_code,
      0);
  const auto before = slurp(out / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json");
  const auto f =
      run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=" + out.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_NE(f.err.find("already holds run"), std::string::npos) << f.err;
  EXPECT_EQ(slurp(out / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json"), before);

  // Without --output_dir each run gets its own directory under results/runs/.
  ASSERT_EQ(run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop"}, dir.path()).exit_code, 0);
  ASSERT_EQ(run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop"}, dir.path()).exit_code, 0);
  int runs = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path() / "results" / "runs")) ++runs;
  EXPECT_EQ(runs, 2);
}

}  // namespace
}  // namespace perfzero::testing::interrupt_and_resume_test
