// Trial order (--interleave) and the summary's comparisons, through the real binary.
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

namespace perfzero::testing {
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

// --benchmark_num_trials=auto: a quiet method stops once the interval of its median is narrow enough;
// a noisy one runs to --max_trials; the summary says why each stopped.
TEST(Scheduling, AutoTrialsStopWhenTheNoiseIsLowOrALimitIsReached) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - {name: steady, command: [/bin/sleep, "0.1"], output: none}
  - {name: jumpy, command: [/bin/sh, -c, "sleep 0.0$((PERFZERO_TRIAL % 2 * 5 + 1))"], output: none}
)yaml");
  const auto f = run_perfzero({"--config=" + suite.string(), "--benchmark_num_trials=auto", "--max_trials=12",
                               "--max_noise=5", "--min_time=0.2s", "--output_dir=run", "--interleave"},
                              dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  for (const auto& m : summary["methods"]) {
    const auto& a = m["trials_auto"];
    ASSERT_TRUE(a.is_object()) << m.dump();
    EXPECT_EQ(a["max_trials"], 12);
    EXPECT_EQ(a["metric"], "wall_time");
    if (m["name"] == "steady") {
      EXPECT_LT(m["trials_run"].get<int>(), 12) << m.dump();
      EXPECT_GE(m["trials_run"].get<int>(), 6);
      EXPECT_NE(a["stopped"].get<std::string>().find("noise"), std::string::npos) << a.dump();
      EXPECT_LE(a["noise"].get<double>(), 0.05);
    } else {
      EXPECT_EQ(m["trials_run"], 12) << m.dump();
      EXPECT_NE(a["stopped"].get<std::string>().find("max_trials 12 reached"), std::string::npos) << a.dump();
    }
  }
  EXPECT_NE(f.out.find("steady: enough trials: noise"), std::string::npos) << f.out;
  // The plan in run.json carries the settings, so a reader (and --resume) knows the case was auto.
  const auto run = read_json(dir.path() / "run" / "run.json");
  EXPECT_EQ(run["plan"][0]["trials_auto"]["max_noise"], 0.05) << run["plan"].dump();
  const auto bad = run_perfzero({"--config=" + suite.string(), "--benchmark_num_trials=3", "--max_noise=5"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("go with --benchmark_num_trials=auto"), std::string::npos) << bad.err;
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
}  // namespace perfzero::testing
