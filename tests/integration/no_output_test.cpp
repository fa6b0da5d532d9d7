// Commands with `output: none`: any program is a method, timed the way hyperfine times it.
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::no_output_test {
namespace {

nlohmann::json report(const std::filesystem::path& out, const std::string& case_dir) {
  return read_json(out / case_dir / "trial_1" / "perfzero_summary.json");
}

// name -> value of a report's metrics.
std::map<std::string, double> metrics_of(const nlohmann::json& r) {
  std::map<std::string, double> values;
  for (const auto& m : r["benchmark_result"]["metrics"])
    values[m["name"].get<std::string>()] = m["value"].get<double>();
  return values;
}

class NoOutput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    const auto suite = dir_->write("no_output.yaml", R"(
defaults: {trials: 1}
methods:
  - {name: ext.true, command: [/bin/true], output: none}
  - {name: ext.exit3, command: [/bin/sh, -c, "exit 3"], output: none}
  - {name: ext.sleep, command: [/bin/sleep, "0.05"], output: none}
  # The peak lives in a grandchild: the worker forks itself to allocate 96 MiB.
  - name: ext.tree
    command: ["{bindir}/perfzero-worker-core", sanity.Sanity.benchmark_spawn_allocating_child, '{"mib": 96, "hold_ms": 20}']
    output: none
)");
    finished_ = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir_->path());
  }
  static void TearDownTestSuite() { dir_.reset(); }

  static std::filesystem::path out() { return dir_->path() / "run"; }
  static inline std::unique_ptr<TempDir> dir_;
  static inline Finished finished_;
};

// A command's peak RSS is its own, whatever an earlier trial asked of the launcher: a 4 MB command
// line (refused by exec: E2BIG) before a small command must not raise the small one's max_rss.
// (perfzero-launch vforks; at exec a vforked child starts from the launcher's peak RSS, which the
// launcher resets to its current RSS before each start.)
TEST(NoOutputPeak, AnEarlierTrialsLargeRequestDoesNotRaiseALaterTrialsPeak) {
  TempDir dir;
  nlohmann::json big_command = nlohmann::json::array({"/bin/true"});
  for (int i = 0; i < 40; ++i) big_command.push_back(std::string(100000, 'x'));
  nlohmann::json suite{{"methods",
                        {{{"name", "big"}, {"command", big_command}, {"output", "none"}},
                         {{"name", "small"}, {"command", {"/bin/true"}}, {"output", "none"}, {"trials", 3}}}}};
  const auto file = dir.write("s.yaml", suite.dump());
  const auto f = run_perfzero({"--config=" + file.string(), "--output_dir=run"}, dir.path());
  ASSERT_NE(f.exit_code, 2) << f.err;
  for (int trial = 1; trial <= 3; ++trial) {
    const auto r =
        read_json(dir.path() / "run" / "small" / ("trial_" + std::to_string(trial)) / "perfzero_summary.json");
    EXPECT_LT(metrics_of(r).at("max_rss"), 3.0 * 1024 * 1024) << "trial " << trial;
  }
}

TEST_F(NoOutput, ExitZeroSucceedsWithTheFourMeasurements) {
  EXPECT_EQ(finished_.exit_code, 1) << finished_.err;  // ext.exit3 fails
  const auto r = report(out(), "ext.true");
  EXPECT_EQ(r["perfzero_cpp"]["outcome"], "succeeded") << r.dump(2);
  const auto m = metrics_of(r);
  for (const char* name : {"user_cpu_seconds", "system_cpu_seconds", "max_rss"}) {
    EXPECT_EQ(m.count(name), 1U) << name << " missing in " << r["benchmark_result"]["metrics"].dump();
  }
  // The wall time is the trial's own, once: not a metric beside it.
  EXPECT_EQ(m.count("wall_time"), 0U) << r["benchmark_result"]["metrics"].dump();
  EXPECT_GT(r["benchmark_result"]["wall_time"].get<double>(), 0.0);
  // /bin/true is one thread and starts nothing: its CPU time cannot exceed the wall time around it
  // (the clock starts before its fork and stops after its reaping), which a figure of another process,
  // or in milliseconds, would. A zero is possible, so there is no lower bound to check.
  const double wall = r["benchmark_result"]["wall_time"].get<double>();
  EXPECT_LE(m.at("user_cpu_seconds") + m.at("system_cpu_seconds"), wall + 1e-3) << r.dump(2);
  EXPECT_GT(m.at("max_rss"), 0.0);
  // No result file was asked for, so none is expected and none is "invalid".
  EXPECT_FALSE(std::filesystem::exists(out() / "ext.true" / "trial_1" / "result.json"));
}

TEST_F(NoOutput, NonZeroExitFailsWithTheCode) {
  const auto r = report(out(), "ext.exit3");
  EXPECT_EQ(r["perfzero_cpp"]["outcome"], "failed");
  EXPECT_EQ(r["perfzero_cpp"]["exit_code"], 3);
  EXPECT_EQ(r["benchmark_result"]["succeeded"], false);
}

TEST_F(NoOutput, WallTimeCoversTheWholeCommand) {
  const auto r = report(out(), "ext.sleep");
  EXPECT_EQ(r["perfzero_cpp"]["outcome"], "succeeded");
  EXPECT_GE(r["benchmark_result"]["wall_time"].get<double>(), 0.05);
}

TEST_F(NoOutput, PeakMemoryIncludesGrandchildren) {
  const auto r = report(out(), "ext.tree");
  EXPECT_EQ(r["perfzero_cpp"]["outcome"], "succeeded") << r.dump(2);
  EXPECT_GT(metrics_of(r).at("max_rss"), 96.0 * 1024 * 1024);
}

TEST_F(NoOutput, TheSummaryHasStatisticsOfTheMeasurements) {
  const auto summary = read_json(out() / "summary.json");
  bool found = false;
  for (const auto& method : summary["methods"]) {
    if (method["name"] != "ext.true") continue;
    found = true;
    EXPECT_TRUE(method.dump().find("user_cpu_seconds") != std::string::npos) << method.dump(2);
  }
  EXPECT_TRUE(found) << summary.dump(2);
}

}  // namespace
}  // namespace perfzero::testing::no_output_test
