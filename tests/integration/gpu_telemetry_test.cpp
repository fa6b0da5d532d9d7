// The GPU sampler and GPU system info on the real binary. No GPU can exist here, so perfzero is
// pointed at the tests' fake libnvidia-ml (tests/fakes/fake_nvml.c) through the test-only
// PERFZERO_TEST_NVML_LIBRARY; everything else (the harness, the launch, the reports) is real.
#include <gtest/gtest.h>

#include <algorithm>

#include "../unit/scoped_env.hpp"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::gpu_telemetry_test {
namespace {

const char* const kSleepSuite = R"(
methods:
  - method: sanity.Sanity.benchmark_sleep
    params: {ms: 700}
)";

std::filesystem::path sleep_trial(const TempDir& dir) {
  return dir.path() / "run" / "sanity.Sanity.benchmark_sleep_ms_700_" / "trial_1";
}

TEST(GpuTelemetry, TwoGpusAreSampledAndAThermalThrottleFlagsTheTrial) {
  TempDir dir;
  const ScopedEnv env{
      {"PERFZERO_TEST_NVML_LIBRARY", PERFZERO_FAKE_NVML}, {"FAKE_NVML_GPUS", "2"}, {"FAKE_NVML_THROTTLE_AT", "2"}};
  const auto f =
      run_perfzero({"--config=" + dir.write("sleep.yaml", kSleepSuite).string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto r = read_json(sleep_trial(dir) / "perfzero_summary.json");
  EXPECT_EQ(r["benchmark_result"]["succeeded"], true);
  const auto& system = r["system_info"];
  EXPECT_EQ(system["accelerator_count"], 2);
  EXPECT_EQ(system["accelerator_model"], "Fake H100 80GB HBM3, Fake A100-SXM4-40GB");
  EXPECT_EQ(system["accelerator_driver_version"], "580.95.05-fake");
  const auto& accelerators = r["perfzero_cpp"]["system"]["accelerators"];
  EXPECT_EQ(accelerators["cuda_driver_version"], "13.0");
  EXPECT_EQ(accelerators["devices"][0]["compute_capability"], "9.0");
  EXPECT_EQ(accelerators["devices"][0]["ecc_enabled"], true);
  EXPECT_EQ(accelerators["devices"][0]["mig_enabled"], false);

  const auto& gpu = r["perfzero_cpp"]["samplers"]["gpu"];
  ASSERT_EQ(gpu["gpus"].size(), 2U) << gpu.dump();
  EXPECT_GE(gpu["gpus"][0]["samples"].get<int>(), 4) << "700 ms at 100 ms a sample";
  EXPECT_EQ(gpu["gpus"][0]["throttled"], true) << gpu.dump();
  EXPECT_EQ(gpu["gpus"][0]["throttle_reasons"], "sw_thermal");
  EXPECT_EQ(gpu["gpus"][1]["throttled"], false);
  EXPECT_GE(gpu["gpus"][0]["sm_util_percent"]["max"].get<double>(), 60) << "utilization ramps 20 % a sample";
  EXPECT_EQ(gpu["error_count"], 0);
  // host_busy may join it on a shared machine: that is the host-load sampler's business.
  const auto& flags = r["perfzero_cpp"]["flags"];
  EXPECT_NE(std::find(flags.begin(), flags.end(), "gpu_throttled"), flags.end()) << flags.dump();

  // The series: one line per GPU and sample, with the sampler's columns.
  const std::string log = slurp(sleep_trial(dir) / "sampler_gpu.log");
  const auto first = nlohmann::json::parse(log.substr(0, log.find('\n')));
  EXPECT_EQ(first["gpu"], 0);
  EXPECT_TRUE(first.contains("power_watts")) << first.dump();
  EXPECT_TRUE(first.contains("throttle_reasons")) << first.dump();

  const auto summary = read_json(dir.path() / "run" / "summary.json");
  EXPECT_EQ(summary["methods"][0]["trials_flagged"], 1);
  EXPECT_NE(slurp(dir.path() / "run" / "summary.md").find("gpu_throttled"), std::string::npos);
}

TEST(GpuTelemetry, AnNvmlFailureIsReportedButNeverFailsTheMethod) {
  TempDir dir;
  const ScopedEnv env{{"PERFZERO_TEST_NVML_LIBRARY", PERFZERO_FAKE_NVML_NO_PCIE},
                      {"FAKE_NVML_FAIL", "nvmlDeviceGetUtilizationRates"}};
  const auto f =
      run_perfzero({"--config=" + dir.write("sleep.yaml", kSleepSuite).string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto r = read_json(sleep_trial(dir) / "perfzero_summary.json");
  EXPECT_EQ(r["benchmark_result"]["succeeded"], true);
  const auto& gpu = r["perfzero_cpp"]["samplers"]["gpu"];
  EXPECT_GE(gpu["error_count"].get<int>(), 1) << gpu.dump();
  EXPECT_EQ(gpu["errors"][0], "nvmlDeviceGetUtilizationRates on GPU 0: Unknown Error (999)");
  EXPECT_EQ(gpu["missing_symbols"], nlohmann::json::array({"nvmlDeviceGetPcieThroughput"}));
  EXPECT_TRUE(gpu["gpus"][0].contains("power_watts")) << "the other readings go on";
  EXPECT_FALSE(gpu["gpus"][0].contains("pcie_tx_mb_per_s"));
  const auto& flags = r["perfzero_cpp"]["flags"];
  EXPECT_EQ(std::find(flags.begin(), flags.end(), "gpu_throttled"), flags.end()) << flags.dump();
}

TEST(GpuTelemetry, WithoutNvmlThereIsNoGpuSampler) {
  TempDir dir;
  const ScopedEnv env{{"PERFZERO_TEST_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"}};
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto r = read_json(dir.path() / "run" / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json");
  EXPECT_FALSE(r["perfzero_cpp"]["samplers"].contains("gpu"));
  EXPECT_NE(r["perfzero_cpp"]["system"]["accelerators"]["source"], "nvml");
}

}  // namespace
}  // namespace perfzero::testing::gpu_telemetry_test
