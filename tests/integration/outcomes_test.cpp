// Every outcome, driven through the real binary and real child processes.
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::outcomes_test {
namespace {

nlohmann::json report(const std::filesystem::path& out, const std::string& case_dir, int trial = 1) {
  return read_json(out / case_dir / ("trial_" + std::to_string(trial)) / "perfzero_summary.json");
}

TEST(Outcomes, EachMethodEndsWithItsNamedOutcome) {
  TempDir dir;
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop,sanity.Sanity.benchmark_crash,"
                               "sanity.Sanity.benchmark_exit_code,sanity.Sanity.benchmark_no_result,"
                               "sanity.Sanity.benchmark_skip,sanity.Sanity.benchmark_throw",
                               "--output_dir=" + out.string()},
                              dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;
  const std::vector<std::pair<std::string, std::string>> expected{
      {"benchmark_noop", "succeeded"},    {"benchmark_crash", "crashed"}, {"benchmark_exit_code", "failed"},
      {"benchmark_no_result", "invalid"}, {"benchmark_skip", "skipped"},  {"benchmark_throw", "failed"}};
  for (const auto& [method, outcome] : expected) {
    const auto r = report(out, "sanity.Sanity." + method);
    EXPECT_EQ(r["perfzero_cpp"]["outcome"], outcome) << method;
    EXPECT_EQ(r["benchmark_result"]["succeeded"], outcome == "succeeded") << method;
  }
  EXPECT_EQ(report(out, "sanity.Sanity.benchmark_crash")["perfzero_cpp"]["signal"], "SIGSEGV");
  EXPECT_EQ(report(out, "sanity.Sanity.benchmark_exit_code")["perfzero_cpp"]["exit_code"], 3);
  EXPECT_EQ(report(out, "sanity.Sanity.benchmark_throw")["benchmark_info"]["has_exception"], true);
  const auto summary = read_json(out / "summary.json");
  EXPECT_EQ(summary["status"], "completed");
  EXPECT_EQ(summary["methods"].size(), 6U);
  // One progress line per method, naming it and its outcome.
  EXPECT_NE(f.out.find("sanity.Sanity.benchmark_crash trial 1/1  crashed"), std::string::npos) << f.out;
}

TEST(Outcomes, SucceededAndSkippedExitZero) {
  TempDir dir;
  const auto f = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop,sanity.Sanity.benchmark_skip", "--output_dir=run"},
      dir.path());
  EXPECT_EQ(f.exit_code, 0) << f.err;
}

TEST(Outcomes, MetricOutsideItsBoundsFails) {
  TempDir dir;
  const auto suite = dir.write("bounds.yaml", R"(
methods:
  - method: sanity.Sanity.benchmark_bounded
    params: {value: [1.0, 5.0], max_value: 2.0}
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  EXPECT_EQ(f.exit_code, 1);
  const auto ok = report(dir.path() / "run", "sanity.Sanity.benchmark_bounded_max_value_2_value_1_");
  EXPECT_EQ(ok["perfzero_cpp"]["outcome"], "succeeded");
  const auto bad = report(dir.path() / "run", "sanity.Sanity.benchmark_bounded_max_value_2_value_5_");
  EXPECT_EQ(bad["perfzero_cpp"]["outcome"], "failed");
  EXPECT_EQ(bad["benchmark_result"]["metrics"][0]["max_value"], 2.0);
}

TEST(Outcomes, TrialsAndWarmupsAreCountedAndSummarised) {
  TempDir dir;
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=3",
                               "--warmup_trials=2", "--output_dir=run"},
                              dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  const auto& m = summary["methods"][0];
  EXPECT_EQ(m["trials_run"], 3);
  EXPECT_EQ(m["warmups"].size(), 2U);
  EXPECT_EQ(m["wall_time"]["count"], 3);
  EXPECT_TRUE(
      std::filesystem::exists(dir.path() / "run" / "sanity.Sanity.benchmark_noop" / "warmup_2" / "perfzero.log"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "run" / "sanity.Sanity.benchmark_noop" / "warmup_1" /
                                       "perfzero_summary.json"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "run" / "summary.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "run" / "summary.md"));
}

// PerfZero's two fields for every outcome (docs/reports.md, "Outcomes"): its dashboards drop methods
// with has_exception, so every abnormal end sets it; a metric outside its bounds ran normally.
TEST(Outcomes, EachOutcomeMapsToPerfZerosSucceededAndHasException) {
  TempDir dir;
  const auto suite = dir.write("all.yaml", R"(
methods:
  - method: sanity.Sanity.benchmark_noop
  - method: sanity.Sanity.benchmark_skip
  - method: sanity.Sanity.benchmark_crash
  - method: sanity.Sanity.benchmark_hang
  - method: sanity.Sanity.benchmark_no_result
  - method: sanity.Sanity.benchmark_exit_code
  - method: sanity.Sanity.benchmark_throw
  - method: sanity.Sanity.benchmark_bounded
    params: {value: 5.0, max_value: 2.0}
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--timeout=1s", "--output_dir=run"}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;
  struct Expected {
    std::string case_dir, outcome;
    bool succeeded, has_exception;
  };
  const std::vector<Expected> expected{
      {"benchmark_noop", "succeeded", true, false},
      {"benchmark_skip", "skipped", false, false},
      {"benchmark_crash", "crashed", false, true},
      {"benchmark_hang", "timed_out", false, true},
      {"benchmark_no_result", "invalid", false, true},
      {"benchmark_exit_code", "failed", false, true},
      {"benchmark_throw", "failed", false, true},
      {"benchmark_bounded_max_value_2_value_5_", "failed", false, false},
  };
  for (const auto& e : expected) {
    const auto r = report(dir.path() / "run", "sanity.Sanity." + e.case_dir);
    EXPECT_EQ(r["perfzero_cpp"]["outcome"], e.outcome) << e.case_dir;
    EXPECT_EQ(r["benchmark_result"]["succeeded"], e.succeeded) << e.case_dir;
    EXPECT_EQ(r["benchmark_info"]["has_exception"], e.has_exception) << e.case_dir;
  }
}

}  // namespace
}  // namespace perfzero::testing::outcomes_test
