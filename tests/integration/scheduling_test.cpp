// Trial order (--interleave) and the summary's comparisons, through the real binary.
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::scheduling_test {
namespace {

double started(const std::filesystem::path& run, const std::string& method, int trial) {
  return read_json(run / method / ("trial_" + std::to_string(trial)) /
                   "perfzero_summary.json")["perfzero_cpp"]["timing"]["started_offset"]
      .get<double>();
}

TEST(Scheduling, InterleaveRunsTrialsRoundRobin) {
  TempDir dir;
  const auto run = dir.path() / "run";
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop,sanity.Sanity.benchmark_sleep",
                               "--benchmark_num_trials=2", "--interleave", "--output_dir=" + run.string()},
                              dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const double noop1 = started(run, "sanity.Sanity.benchmark_noop", 1);
  const double sleep1 = started(run, "sanity.Sanity.benchmark_sleep", 1);
  const double noop2 = started(run, "sanity.Sanity.benchmark_noop", 2);
  const double sleep2 = started(run, "sanity.Sanity.benchmark_sleep", 2);
  EXPECT_LT(noop1, sleep1);
  EXPECT_LT(sleep1, noop2);
  EXPECT_LT(noop2, sleep2);
}

TEST(Scheduling, WithoutInterleaveEachMethodRunsItsTrialsTogether) {
  TempDir dir;
  const auto run = dir.path() / "run";
  ASSERT_EQ(run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop,sanity.Sanity.benchmark_sleep",
                          "--benchmark_num_trials=2", "--output_dir=" + run.string()},
                         dir.path())
                .exit_code,
            0);
  EXPECT_LT(started(run, "sanity.Sanity.benchmark_noop", 2), started(run, "sanity.Sanity.benchmark_sleep", 1));
}

TEST(Comparisons, TheSummaryShowsTheRatioOfMediansAndTheGoal) {
  TempDir dir;
  const auto suite = dir.write("cmp.yaml", R"(
interleave: true
defaults: {trials: 2}
methods:
  - method: sanity.Sanity.benchmark_bounded
    params: {value: [0.5, 1.5]}
comparisons:
  - name: half against one and a half
    ours: {method: "sanity.Sanity.benchmark_bounded[value=0.5]", metric: value}
    theirs: {method: "sanity.Sanity.benchmark_bounded[value=1.5]", metric: value}
    goal: 0.5
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  ASSERT_EQ(summary["comparisons"].size(), 1U);
  const auto& c = summary["comparisons"][0];
  EXPECT_NEAR(c["ratio"].get<double>(), 1.0 / 3.0, 1e-12);
  EXPECT_EQ(c["goal_met"], false);
  EXPECT_NE(slurp(dir.path() / "run" / "summary.md")
                .find("| half against one and a half | 0.5 | 1.5 | 0.33x | 0.5 (not met) |"),
            std::string::npos);
}

}  // namespace
}  // namespace perfzero::testing::scheduling_test
