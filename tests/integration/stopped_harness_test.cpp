// A harness that is stopped, or told to stop at the very end (issue 20, item 6), on the real binary:
// a SIGSTOP while a method runs does not stretch its wall time and flags the trial harness_stalled;
// a SIGTERM while the final summaries are written leaves them whole and exits 128+15, saying so.
#include <gtest/gtest.h>

#include <thread>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::stopped_harness_test {
namespace {

namespace fs = std::filesystem;

bool wait_for(const std::function<bool()>& ready, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// Issue 20: SIGSTOP of the harness for 4 s during a 500 ms method was recorded as a 4.11 s success.
TEST(StoppedHarness, ASigstopDuringAMethodNeitherStretchesItsWallTimeNorGoesUnflagged) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", "methods: [{method: sanity.Sanity.benchmark_sleep, params: {ms: 500}}]\n");
  RunningPerfzero p({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  const fs::path trial = dir.path() / "run" / "sanity.Sanity.benchmark_sleep_ms_500_" / "trial_1";
  ASSERT_TRUE(wait_for([&] { return fs::exists(trial / "perfzero.log"); }, std::chrono::seconds(10)));
  p.signal(SIGSTOP);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  p.signal(SIGCONT);
  const auto f = p.wait();
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto report = read_json(trial / "perfzero_summary.json");
  // The method takes 500 ms: the launcher's clock says so, whatever the harness's said.
  EXPECT_LT(report["benchmark_result"]["wall_time"].get<double>(), 1.0) << report["benchmark_result"].dump();
  EXPECT_GE(report["benchmark_result"]["wall_time"].get<double>(), 0.5);
  EXPECT_NE(report["perfzero_cpp"]["flags"].dump().find("harness_stalled"), std::string::npos)
      << report["perfzero_cpp"]["flags"];
  EXPECT_NE(f.out.find("harness stalled 1"), std::string::npos) << f.out;
}

// Issue 20: SIGTERM while the final summaries were written was ignored (exit 0, completed).
TEST(StoppedHarness, ASigtermDuringTheFinalWritesLeavesThemWholeAndExits143) {
  TempDir dir;
  // syncfs, the last thing a run does, made to take 2 s: time to send the signal once run.json says
  // the run completed.
  ::setenv("LD_PRELOAD", PERFZERO_SLOW_SYNCFS, 1);
  ::setenv("PERFZERO_SLOW_SYNCFS_MS", "1500", 1);
  ::setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 1);  // the shim comes before ASan's runtime
  RunningPerfzero p({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run"}, dir.path());
  ::unsetenv("LD_PRELOAD");
  ::unsetenv("PERFZERO_SLOW_SYNCFS_MS");
  ::unsetenv("ASAN_OPTIONS");
  const fs::path run_json = dir.path() / "run" / "run.json";
  ASSERT_TRUE(wait_for(
      [&] { return fs::exists(run_json) && slurp(run_json).find("\"status\": \"completed\"") != std::string::npos; },
      std::chrono::seconds(20)));
  p.signal(SIGTERM);
  const auto f = p.wait();
  EXPECT_EQ(f.exit_code, 143) << f.out << f.err;
  EXPECT_NE(f.err.find("came after the last trial, while the summaries were written: they are whole"),
            std::string::npos)
      << f.err;
  EXPECT_EQ(read_json(run_json)["status"], "interrupted_after_completion");
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  EXPECT_EQ(summary["status"], "interrupted_after_completion");
  EXPECT_EQ(summary["methods"][0]["trials_run"], 1);
}

}  // namespace
}  // namespace perfzero::testing::stopped_harness_test
