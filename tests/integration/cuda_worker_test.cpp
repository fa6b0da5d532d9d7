// The CUDA worker on the real binary: `perfzero list` marks the GPU methods, and a suite of every
// CUDA method ends with each one skipped with the reason (exit 0) where no GPU is usable, as here
// and in CI; where a GPU is, they must succeed.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::cuda_worker_test {
namespace {

TEST(CudaWorker, ListMarksTheMethodsThatNeedAGpu) {
  TempDir dir;
  const auto text = run_perfzero({"list"}, dir.path() / "text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("family cuda (perfzero-worker-cuda)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("needs gpu: an NVIDIA GPU (skipped without one)"), std::string::npos);
  const auto json = run_perfzero({"list", "--format=json"}, dir.path() / "json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  int gpu_methods = 0;
  for (const auto& m : doc["methods"]) {
    // The CUDA worker holds the cuda and nccl families: every method in it needs a GPU, no other does.
    const bool cuda = m["worker"] == "cuda";
    EXPECT_EQ(m["needs"] == nlohmann::json::array({"gpu"}), cuda) << m.dump();
    if (cuda) {
      ++gpu_methods;
      EXPECT_TRUE(m["family"] == "cuda" || m["family"] == "nccl") << m.dump();
    }
  }
  EXPECT_GE(gpu_methods, 10);
}

TEST(CudaWorker, EveryGpuMethodEndsSkippedWithTheReasonWithoutAGpu) {
  TempDir dir;
  const auto suite = dir.write("gpu.yaml", R"(
defaults: {trials: 1}
methods:
  - method: cuda.SpeedCube.filter:.*
    params: {n: 4096, chunk: 1024, repetitions: 2, warmups: 1}
  - method: cuda.VecAdd.benchmark_vecadd
    params: {repetitions: 2, warmups: 1}
  - method: cuda.Copy.filter:.*
    params: {bytes: 16777216, repetitions: 2, warmups: 1}
  - method: cuda.Gemm.benchmark_gemm
    params: {m: 512, n: 512, k: 512, repetitions: 2, warmups: 1}
  - method: cuda.Training.benchmark_mnist_cnn_step
    params: {batch: 16, steps: 10, warmups: 0}
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.out << f.err;
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  ASSERT_GE(summary["methods"].size(), 10U);
  const bool gpu_present = f.out.find("no CUDA device") == std::string::npos;
  for (const auto& m : summary["methods"]) {
    EXPECT_EQ(m["outcome"], gpu_present ? "succeeded" : "skipped") << m.dump();
  }
  if (!gpu_present) {
    std::filesystem::path vecadd;  // the case directory's name carries its parameters
    for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "run")) {
      if (entry.path().filename().string().starts_with("cuda.VecAdd.")) vecadd = entry.path();
    }
    ASSERT_FALSE(vecadd.empty());
    const auto report = read_json(vecadd / "trial_1" / "perfzero_summary.json");
    EXPECT_EQ(report["perfzero_cpp"]["outcome"], "skipped");
    EXPECT_NE(report.dump().find("no CUDA device: "), std::string::npos);
  }
}

#ifdef PERFZERO_TEST_NCCL
// The nccl family in the same worker: skipped with the reason here; with a GPU, one process drives
// every GPU and each operation reports algbw, busbw and time, in place where NCCL defines it.
TEST(CudaWorker, NcclCollectivesSkipWithoutAGpuAndMeasureEveryFormWithOne) {
  TempDir dir;
  const auto suite = dir.write("nccl.yaml", R"(
defaults: {trials: 1}
methods:
  - method: nccl.Collectives.filter:.*
    params: {bytes: 1048576, iters: 5, warmup_iters: 1}
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.out << f.err;
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  ASSERT_EQ(summary["methods"].size(), 6U) << summary.dump();
  const bool gpu_present = f.out.find("no CUDA device") == std::string::npos;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "run")) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("nccl.Collectives.")) continue;
    const auto report = read_json(entry.path() / "trial_1" / "perfzero_summary.json");
    const auto& pz = report["perfzero_cpp"];
    if (!gpu_present) {
      EXPECT_EQ(pz["outcome"], "skipped") << name;
      EXPECT_NE(report.dump().find("no CUDA device: "), std::string::npos) << name;
      continue;
    }
    EXPECT_EQ(pz["outcome"], "succeeded") << name << report.dump();
    std::set<std::string> metrics;
    for (const auto& m : report["benchmark_result"]["metrics"]) metrics.insert(m["name"].get<std::string>());
    EXPECT_TRUE(metrics.count("algbw") && metrics.count("busbw") && metrics.count("time_us")) << name;
    const bool in_place = name.find("alltoall") == std::string::npos && name.find("sendrecv") == std::string::npos;
    EXPECT_EQ(metrics.count("busbw_in_place"), in_place ? 1U : 0U) << name;
    const auto& extras = report["benchmark_result"]["extras"];
    EXPECT_FALSE(extras.dump().find("nccl_version") == std::string::npos) << name;
    EXPECT_FALSE(extras.dump().find("every element of every rank") == std::string::npos) << name;
  }
}
#endif

}  // namespace
}  // namespace perfzero::testing::cuda_worker_test
