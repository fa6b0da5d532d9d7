// The OpenCL worker through the real binary: every method skipped with the reason when the ICD
// loader finds no platform, and a real run on PoCL (this machine's CPU as an OpenCL device) whose
// reports describe the device. Without PoCL the second test skips, except under CI=true.
#include <gtest/gtest.h>

#include <cstdlib>

#include "../unit/scoped_env.hpp"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::opencl_test {
namespace {

const std::string kEveryMethod =
    "--benchmark_methods=opencl.VectorAdd.filter:.*,opencl.Bandwidth.filter:.*,opencl.Gemm.filter:.*,"
    "opencl.SpeedCube.filter:.*,opencl.Training.filter:.*";

TEST(OpenCl, WithoutAnyPlatformEveryMethodIsSkippedWithTheReason) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "no_vendors");
  const ScopedEnv no_icd{{"OCL_ICD_VENDORS", (dir.path() / "no_vendors").string()}};
  const auto f = run_perfzero({kEveryMethod, "--output_dir=run"}, dir.path());
  EXPECT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  ASSERT_EQ(summary["methods"].size(), 8U) << summary.dump(2);
  for (const auto& method : summary["methods"]) {
    EXPECT_EQ(method["outcome"], "skipped") << method["name"];
    const std::string detail = method["trials"][0]["detail"];
    EXPECT_NE(detail.find("no OpenCL platform: the ICD loader found no driver"), std::string::npos) << detail;
  }
}

bool pocl_installed() { return std::filesystem::exists("/etc/OpenCL/vendors/pocl.icd"); }

TEST(OpenCl, RunsOnPoclAndRecordsTheDevice) {
  if (!pocl_installed()) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true") FAIL() << "CI=true needs PoCL (pocl-opencl-icd)";
    GTEST_SKIP() << "PoCL is not installed (pocl-opencl-icd)";
  }
  TempDir dir;
  const auto suite = dir.write("opencl.yaml", R"(
suite: opencl_it
defaults: {trials: 1, timeout: 120s}
methods:
  - method: opencl.VectorAdd.benchmark_vecadd
    params: {n: 50000, device: all, platform: "Portable Computing Language", repetitions: 3}
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  EXPECT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  ASSERT_EQ(summary["methods"].size(), 1U);
  const auto& method = summary["methods"][0];
  EXPECT_EQ(method["outcome"], "succeeded") << method.dump(2);
  const auto report =
      read_json(dir.path() / "run" / method["dir"].get<std::string>() / "trial_1" / "perfzero_summary.json");
  const auto& extras = report["benchmark_result"]["extras"];
  EXPECT_EQ(extras["platform@p0d0"], "Portable Computing Language") << extras.dump(2);
  for (const char* key : {"device@p0d0", "driver_version@p0d0", "opencl_version@p0d0", "compute_units@p0d0",
                          "clock_mhz@p0d0", "global_memory_bytes@p0d0", "local_memory_bytes@p0d0"}) {
    EXPECT_TRUE(extras.contains(key)) << key << " in " << extras.dump(2);
  }
  bool has_gbps = false;
  for (const auto& m : report["benchmark_result"]["metrics"]) has_gbps = has_gbps || m["name"] == "gbps@p0d0";
  EXPECT_TRUE(has_gbps) << report["benchmark_result"]["metrics"].dump(2);
}

}  // namespace
}  // namespace perfzero::testing::opencl_test
