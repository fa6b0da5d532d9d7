#include "samplers/host_load_sampler.hpp"

#include <gtest/gtest.h>

namespace perfzero::samplers {
namespace {

TEST(HostLoad, ParsesTheCpuLineOfProcStat) {
  const auto t = parse_proc_stat_cpu_line("cpu  100 5 50 1000 20 3 2 10 0 0");
  ASSERT_TRUE(t.has_value());
  EXPECT_DOUBLE_EQ(t->busy, 100 + 5 + 50 + 3 + 2);
  EXPECT_DOUBLE_EQ(t->steal, 10);
  EXPECT_DOUBLE_EQ(t->total, 1190);
  EXPECT_FALSE(parse_proc_stat_cpu_line("cpu0 1 2 3 4 5 6 7 8").has_value());
  EXPECT_FALSE(parse_proc_stat_cpu_line("cpu  1 2 3").has_value());
}

TEST(HostLoad, ANeighbourUsingACoreIsFlaggedTheTrialItselfIsNot) {
  // Two CPUs at 100 ticks/s over 1 s: 200 ticks. The trial used one CPU for the whole second.
  const CpuTimes before{0, 0, 0};
  const CpuTimes alone{100, 0, 200};    // only the trial's own second
  const CpuTimes shared{195, 0, 200};   // and another process's 0.95 s
  const CpuTimes stolen{100, 60, 200};  // the hypervisor gave 0.6 s to other guests
  const auto quiet = judge_host_load(before, alone, 1.0, 1.0, 2, 100);
  EXPECT_TRUE(quiet.judged);
  EXPECT_FALSE(quiet.busy);
  EXPECT_NEAR(quiet.other_busy_cpus, 0.0, 1e-9);
  const auto busy = judge_host_load(before, shared, 1.0, 1.0, 2, 100);
  EXPECT_TRUE(busy.busy);
  EXPECT_NEAR(busy.other_busy_cpus, 0.95, 1e-9);
  EXPECT_NEAR(busy.host_busy_cpus, 1.95, 1e-9);
  const auto steal = judge_host_load(before, stolen, 1.0, 1.0, 2, 100);
  EXPECT_TRUE(steal.busy);
  EXPECT_NEAR(steal.steal_percent, 30.0, 1e-9);
}

TEST(HostLoad, ShortTrialsAreNotJudgedAndLargeMachinesHaveAHigherThreshold) {
  const CpuTimes before{0, 0, 0};
  const CpuTimes after{10, 0, 20};
  EXPECT_FALSE(judge_host_load(before, after, 0.1, 0.0, 2, 100).judged);
  EXPECT_FALSE(judge_host_load(before, after, 0.1, 0.0, 2, 100).busy);
  EXPECT_DOUBLE_EQ(judge_host_load(before, after, 1, 0, 2, 100).threshold_cpus, 0.25);
  EXPECT_DOUBLE_EQ(judge_host_load(before, after, 1, 0, 128, 100).threshold_cpus, 0.02 * 128);
}

TEST(HostLoad, SamplesTheRealProcStat) {
  HostLoadSampler sampler;
  sampler.start(0);
  sampler.sample(0.0);
  const auto out = sampler.finish(TrialFacts{0.01, 0.0, {}});
  EXPECT_EQ(out.summary["available"], true);
  EXPECT_EQ(out.summary["judged"], false) << "a 10 ms window is too short to judge";
  EXPECT_EQ(out.series.columns.size(), 3U);

  HostLoadSampler missing("/nonexistent/stat");
  missing.start(0);
  EXPECT_EQ(missing.finish(TrialFacts{}).summary["available"], false);
}

}  // namespace
}  // namespace perfzero::samplers
