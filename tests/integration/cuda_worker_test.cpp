// The CUDA worker on the real binary: `perfzero list` marks the GPU methods, and a suite of every
// CUDA method ends with each one skipped with the reason (exit 0) where no GPU is usable, as here
// and in CI; where a GPU is, they must succeed.
#include <gtest/gtest.h>

#include <filesystem>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

namespace perfzero::testing {
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
    const bool cuda = m["family"] == "cuda";
    EXPECT_EQ(m["needs"] == nlohmann::json::array({"gpu"}), cuda) << m.dump();
    if (cuda) {
      ++gpu_methods;
      EXPECT_EQ(m["worker"], "cuda");
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

}  // namespace
}  // namespace perfzero::testing
