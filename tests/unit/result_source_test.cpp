#include "runner/result_source.hpp"

#include <signal.h>

#include <gtest/gtest.h>

#include "runner/outcome_classifier.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::runner::result_source_test {
namespace {

config::PlannedCase command_case(config::OutputFormat output) {
  config::PlannedCase planned;
  planned.name = "ext.true";
  planned.external = true;
  planned.command.argv = {"/bin/true"};
  planned.command.output = output;
  return planned;
}

TrialExecution measured_execution(int exit_code) {
  TrialExecution e;
  e.end = ProcessEnd::exited;
  e.exit_code = exit_code;
  e.wall_seconds = 0.25;
  e.kernel = KernelUsage{64ULL << 20, 0.125, 0.0625, 2, 0, std::nullopt, std::nullopt, {}};
  e.tree.max_hwm_process = 32ULL << 20;
  return e;
}

const Metric* find(const child_results::ChildResult& r, const std::string& name) {
  for (const auto& m : r.metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

TEST(ResultSource, NoOutputMakesTheMeasurementsTheMetrics) {
  testing::TempDir dir;
  const auto result = read_trial_result(command_case(config::OutputFormat::none), dir.path(), measured_execution(0));
  const auto* child = std::get_if<child_results::ChildResult>(&result);
  ASSERT_NE(child, nullptr) << std::get<std::string>(result);
  // The wall time is the trial's own (every output shows it once as wall_time), not a metric too.
  ASSERT_EQ(child->metrics.size(), 3U);
  EXPECT_EQ(find(*child, "wall_time"), nullptr);
  EXPECT_EQ(find(*child, kUserCpuMetric)->value, 0.125);
  EXPECT_EQ(find(*child, kSystemCpuMetric)->value, 0.0625);
  // The kernel's exact figure wins over the monitor's sampled one when it is larger.
  EXPECT_EQ(find(*child, kMaxRssMetric)->value, static_cast<double>(64ULL << 20));
  EXPECT_EQ(find(*child, kMaxRssMetric)->unit, "bytes");
  for (const auto& m : child->metrics) EXPECT_EQ(m.direction, Direction::lower_is_better) << m.name;
}

TEST(ResultSource, TheSuitesDirectionsOverrideWhatTheCommandSaid) {
  auto planned = command_case(config::OutputFormat::none);
  planned.command.metric_directions = {{kMaxRssMetric, Direction::higher_is_better}};
  testing::TempDir dir;
  const auto result = read_trial_result(planned, dir.path(), measured_execution(0));
  const auto& child = std::get<child_results::ChildResult>(result);
  EXPECT_EQ(find(child, kMaxRssMetric)->direction, Direction::higher_is_better);
  EXPECT_EQ(find(child, kUserCpuMetric)->direction, Direction::lower_is_better);
}

TEST(ResultSource, MonitorPeakCoversWhatTheKernelMissed) {
  auto e = measured_execution(0);
  e.tree.max_hwm_process = 128ULL << 20;
  EXPECT_EQ(find(measured_result(e), kMaxRssMetric)->value, static_cast<double>(128ULL << 20));
}

TEST(ResultSource, WithoutKernelAccountingCpuIsLeftOutNotZero) {
  auto e = measured_execution(0);
  e.kernel.reset();
  e.tree.max_hwm_process = 0;
  const auto r = measured_result(e);
  EXPECT_TRUE(r.metrics.empty());
}

TEST(ResultSource, NoOutputIsClassifiedByHowTheCommandEnded) {
  testing::TempDir dir;
  const auto planned = command_case(config::OutputFormat::none);
  EXPECT_EQ(classify(measured_execution(0), read_trial_result(planned, dir.path(), measured_execution(0))).outcome,
            Outcome::succeeded);
  const auto failed = classify(measured_execution(3), read_trial_result(planned, dir.path(), measured_execution(3)));
  EXPECT_EQ(failed.outcome, Outcome::failed);
  EXPECT_EQ(failed.detail, "exited with code 3");
  auto signaled = measured_execution(0);
  signaled.end = ProcessEnd::signaled;
  signaled.signal = SIGKILL;
  EXPECT_EQ(classify(signaled, read_trial_result(planned, dir.path(), signaled)).outcome, Outcome::crashed);
}

TEST(ResultSource, OtherFormatsReadTheirFiles) {
  testing::TempDir dir;
  const auto e = measured_execution(0);
  // Nothing written: the protocol and Google Benchmark cases say so, for the classifier to call invalid.
  EXPECT_TRUE(std::holds_alternative<std::string>(
      read_trial_result(command_case(config::OutputFormat::perfzero), dir.path(), e)));
  EXPECT_TRUE(std::holds_alternative<std::string>(
      read_trial_result(command_case(config::OutputFormat::google_benchmark), dir.path(), e)));
  dir.write("result.json", R"({"metrics": [{"name": "x", "value": 7}]})");
  const auto result = read_trial_result(command_case(config::OutputFormat::perfzero), dir.path(), e);
  ASSERT_TRUE(std::holds_alternative<child_results::ChildResult>(result)) << std::get<std::string>(result);
  EXPECT_EQ(std::get<child_results::ChildResult>(result).metrics.at(0).name, "x");
  // A built-in method always uses the protocol, whatever its (unused) command says.
  auto builtin = command_case(config::OutputFormat::none);
  builtin.external = false;
  EXPECT_EQ(std::get<child_results::ChildResult>(read_trial_result(builtin, dir.path(), e)).metrics.at(0).name, "x");
}

}  // namespace
}  // namespace perfzero::runner::result_source_test
