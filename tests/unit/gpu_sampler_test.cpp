// The GPU sampler's arithmetic on recorded readings, and the sampler itself on the fake NVML
// (tests/fakes/fake_nvml.c; no GPU can exist here).
#include "samplers/gpu_sampler.hpp"

#include <gtest/gtest.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "nvml/nvml_api.h"
#include "scoped_env.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::samplers::gpu_sampler_test {
namespace {

using testing::ScopedEnv;

nvml::GpuReading reading(double util, double watts, std::uint64_t reasons) {
  nvml::GpuReading r;
  r.sm_util_percent = util;
  r.power_watts = watts;
  r.throttle_reasons = reasons;
  return r;
}

TEST(GpuStats, MaxAndMeanOfEachReadingAndNoThrottleWhenIdleOrClockSet) {
  GpuStats stats;
  stats.add(reading(10, 100, 0));
  stats.add(reading(50, 300, nvmlClocksThrottleReasonGpuIdle));
  stats.add(reading(90, 200, nvmlClocksThrottleReasonApplicationsClocksSetting));
  const auto s = stats.summary();
  EXPECT_EQ(s["samples"], 3);
  EXPECT_DOUBLE_EQ(s["sm_util_percent"]["max"].get<double>(), 90);
  EXPECT_DOUBLE_EQ(s["sm_util_percent"]["mean"].get<double>(), 50);
  EXPECT_DOUBLE_EQ(s["power_watts"]["max"].get<double>(), 300);
  EXPECT_FALSE(s.contains("temperature_c")) << "never read, so not summarized";
  EXPECT_EQ(s["throttled"], false);
  EXPECT_FALSE(stats.throttled());
}

TEST(GpuStats, ASlowdownSampleMarksTheGpuThrottledWithItsReasons) {
  GpuStats stats;
  stats.add(reading(100, 400, 0));
  stats.add(reading(100, 400, nvmlClocksThrottleReasonHwSlowdown));
  stats.add(reading(100, 400, nvmlClocksThrottleReasonSwPowerCap));
  const auto s = stats.summary();
  EXPECT_TRUE(stats.throttled());
  EXPECT_EQ(s["throttled_samples"], 2);
  EXPECT_EQ(s["throttle_reasons"], "sw_power_cap,hw_slowdown");
}

TEST(GpuSampler, IsLeftOutWithoutNvml) {
  const ScopedEnv env{{nvml::kLibraryEnv, "/nonexistent/libnvidia-ml.so.1"}};
  EXPECT_EQ(GpuSampler::make(), nullptr);
}

TEST(GpuSampler, IsLeftOutWhenNvmlSeesNoGpu) {
  const ScopedEnv env{{nvml::kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_GPUS", "0"}};
  EXPECT_EQ(GpuSampler::make(), nullptr);
}

TEST(GpuSampler, SamplesEveryGpuAndFlagsTheThrottledTrial) {
  const ScopedEnv env{{nvml::kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_GPUS", "2"}, {"FAKE_NVML_THROTTLE_AT", "3"}};
  auto sampler = GpuSampler::make();
  ASSERT_NE(sampler, nullptr);
  sampler->start(::getpid());
  for (int i = 0; i < 5; ++i) sampler->sample(0.1 * i);
  const SamplerOutput out = sampler->finish(TrialFacts{});
  EXPECT_EQ(out.flags, std::vector<std::string>{"gpu_throttled"});
  ASSERT_EQ(out.summary["gpus"].size(), 2U);
  const auto& gpu0 = out.summary["gpus"][0];
  EXPECT_EQ(gpu0["model"], "Fake H100 80GB HBM3");
  EXPECT_EQ(gpu0["throttled_samples"], 2);  // samples 3 and 4
  EXPECT_EQ(gpu0["throttle_reasons"], "sw_thermal");
  EXPECT_DOUBLE_EQ(gpu0["sm_util_percent"]["max"].get<double>(), 80);
  EXPECT_DOUBLE_EQ(gpu0["sm_clock_mhz"]["max"].get<double>(), 1980);
  EXPECT_EQ(out.summary["gpus"][1]["throttled"], false);
  ASSERT_EQ(out.series.rows.size(), 10U);  // 5 samples x 2 GPUs
  EXPECT_EQ(out.series.columns.size(), out.series.rows[0].size());
  EXPECT_EQ(out.series.rows[9][1], 1.0);  // the GPU index column
}

// NVLink counters are cumulative KiB with NVML's own timestamps: the rate is their difference over
// the time between two readings (the fake sends 1 KiB and receives 0.5 KiB per microsecond).
TEST(GpuSampler, NvlinkThroughputIsTheCountersDifferenceOverNvmlsClock) {
  const ScopedEnv env{{nvml::kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_NVLINK", "1"}};
  auto sampler = GpuSampler::make();
  ASSERT_NE(sampler, nullptr);
  sampler->start(::getpid());
  for (int i = 0; i < 4; ++i) {
    sampler->sample(0.01 * i);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const SamplerOutput out = sampler->finish(TrialFacts{});
  const auto& gpu0 = out.summary["gpus"][0];
  ASSERT_TRUE(gpu0.contains("nvlink_tx_mb_per_s")) << gpu0.dump();
  EXPECT_NEAR(gpu0["nvlink_tx_mb_per_s"]["mean"].get<double>(), 1024, 1e-6);
  EXPECT_NEAR(gpu0["nvlink_rx_mb_per_s"]["max"].get<double>(), 512, 1);
  // The first reading has nothing to differ from: its rate cells are empty (NaN), the rest are not.
  const auto tx = std::find(out.series.columns.begin(), out.series.columns.end(), "nvlink_tx_mb_per_s") -
                  out.series.columns.begin();
  ASSERT_LT(static_cast<std::size_t>(tx), out.series.columns.size());
  EXPECT_TRUE(std::isnan(out.series.rows[0][static_cast<std::size_t>(tx)]));
  EXPECT_NEAR(out.series.rows[3][static_cast<std::size_t>(tx)], 1024, 1e-6);
}

TEST(GpuSampler, AGpuWithoutNvlinkHasNoNvlinkReadingAndNoError) {
  const ScopedEnv env{{nvml::kLibraryEnv, PERFZERO_FAKE_NVML}};
  auto sampler = GpuSampler::make();
  ASSERT_NE(sampler, nullptr);
  sampler->start(::getpid());
  for (int i = 0; i < 3; ++i) sampler->sample(0.1 * i);
  const SamplerOutput out = sampler->finish(TrialFacts{});
  EXPECT_FALSE(out.summary["gpus"][0].contains("nvlink_tx_mb_per_s"));
  EXPECT_EQ(out.summary["error_count"], 0);
}

TEST(GpuSampler, AFailingCallIsReportedOnceAndNothingElseIsLost) {
  const ScopedEnv env{{nvml::kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_FAIL", "nvmlDeviceGetTemperature"}};
  auto sampler = GpuSampler::make();
  ASSERT_NE(sampler, nullptr);
  sampler->start(::getpid());
  for (int i = 0; i < 3; ++i) sampler->sample(0.1 * i);
  const SamplerOutput out = sampler->finish(TrialFacts{});
  EXPECT_EQ(out.summary["error_count"], 3);
  EXPECT_EQ(out.summary["errors"], nlohmann::json::array({"nvmlDeviceGetTemperature on GPU 0: Unknown Error (999)"}));
  EXPECT_FALSE(out.summary["gpus"][0].contains("temperature_c"));
  EXPECT_TRUE(out.summary["gpus"][0].contains("power_watts"));
  EXPECT_TRUE(out.flags.empty());
}

}  // namespace
}  // namespace perfzero::samplers::gpu_sampler_test
