// The CUDA family without a GPU: its host-side parts (the peak table, the speed cube's generator on
// the host path, against the CPU family's), and every method ending skipped with the reason when
// no CUDA device is usable. On a machine with a GPU the methods must succeed instead.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "cuda/cuda_device.hpp"
#include "cuda/gemm_peak.hpp"
#include "cuda/speedcube_rng.hpp"
#include "perfzero/benchmark.hpp"
#include "speedcube/philox.hpp"
#include "speedcube/speedcube.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::cuda::cuda_test {
namespace {

TEST(CudaGemmPeak, IsSmsTimesClockTimesTheTablesRate) {
  const auto h100 = gemm_peak(9, 0, 132, 1830, GemmType::bf16);
  ASSERT_TRUE(h100.has_value());
  EXPECT_NEAR(h100->tflops, 989.4, 0.1) << "NVIDIA's H100 SXM dense bf16 figure";
  EXPECT_EQ(h100->how, "4096 FLOP/clock/SM x 132 SMs x 1830 MHz");
  EXPECT_NEAR(gemm_peak(8, 0, 108, 1410, GemmType::tf32)->tflops, 156.0, 0.1);  // A100 tf32
  // L40S fp8: NVIDIA rounds 732.9 (2048 FLOP/clock/SM) to 733.
  EXPECT_NEAR(gemm_peak(8, 9, 142, 2520, GemmType::fp8)->tflops, 732.9, 0.1);
  EXPECT_FALSE(gemm_peak(8, 0, 108, 1410, GemmType::fp8).has_value()) << "no fp8 before Ada";
  EXPECT_FALSE(gemm_peak(12, 0, 188, 2400, GemmType::fp16).has_value()) << "not in the table";
  EXPECT_FALSE(gemm_type_supported(7, 5, GemmType::bf16));
  EXPECT_TRUE(gemm_type_supported(9, 0, GemmType::fp8));
  EXPECT_TRUE(gemm_type_supported(12, 0, GemmType::tf32)) << "newer GPUs keep the types";
  EXPECT_EQ(gemm_type_from("tf32"), GemmType::tf32);
  EXPECT_FALSE(gemm_type_from("fp64").has_value());
}

TEST(CudaSpeedCube, PhiloxIsTheCpuFamilysWordForWord) {
  for (std::uint64_t counter : {0ULL, 1ULL, 12345678901ULL, 0xFFFFFFFFFFFFULL}) {
    const auto gpu = speedcube::philox4x32_10(counter, 42);
    const auto cpu = perfzero::speedcube::philox4x32_10(counter, 42);
    EXPECT_EQ(gpu.w0, cpu.w0);
    EXPECT_EQ(gpu.w1, cpu.w1);
    EXPECT_EQ(gpu.w2, cpu.w2);
    EXPECT_EQ(gpu.w3, cpu.w3);
  }
}

TEST(CudaSpeedCube, PointsAreTheCpuFamilysByIndex) {
  perfzero::speedcube::Problem p;
  p.n = 2000;
  p.chunk = 400;
  p.seed = 7;
  for (std::int64_t row : {0L, 1L, 999L, 1999L}) {
    std::vector<double> cpu(64);
    perfzero::speedcube::generate_row_segment(p, row, 1936, 64, cpu.data());
    for (std::int64_t g = 0; g < 16; ++g) {
      const auto x = speedcube::four_points(speedcube::counter_of(p.n, row, 1936 + 4 * g), p.seed);
      const double gpu[4] = {x.x0, x.x1, x.x2, x.x3};
      for (std::size_t t = 0; t < 4; ++t) {
        // The CPU family's vectorized log/sin/cos are series accurate to ~1e-13.
        EXPECT_NEAR(gpu[t], cpu[static_cast<std::size_t>(4 * g) + t], 1e-11) << "row " << row << " group " << g;
      }
    }
  }
}

// The GPU kernels draw through tables and short series; they must give the points four_points
// gives (the CPU family's within 1e-11, above) within 1e-12, over the whole range of words: both
// ends, the table cells' edges and a spread of random words.
TEST(CudaSpeedCube, TabledBoxMullerIsFourPointsToTheLastPlaces) {
  const auto tables = speedcube::make_box_muller_tables();
  std::vector<std::uint32_t> words{0U, 1U, 2U, 0x7FFFFFFFU, 0x80000000U, 0xFFFFFFFEU, 0xFFFFFFFFU};
  for (std::uint32_t i = 0; i < 256; ++i) {
    words.push_back(i << 24);  // angle table steps and log cell edges
    words.push_back((i << 24) - 1U);
    words.push_back((i << 24) + (1U << 23));
  }
  std::uint32_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525U + 1013904223U;
    words.push_back(state);
  }
  double worst_log = 0;
  double worst_angle = 0;
  for (const std::uint32_t w : words) {
    const double u = (static_cast<double>(w) + 0.5) / 4294967296.0;
    // Relative to ln u's size, but not below 1: near u = 1, ln u is tiny and what counts is the
    // error of the radius sqrt(-2 ln u), which is checked through the points below.
    const double log_error =
        std::fabs(speedcube::log_uniform(w, tables) - std::log(u)) / std::max(1.0, std::fabs(std::log(u)));
    worst_log = std::max(worst_log, log_error);
    const double t = 2.0 * (u - 0.5);
    double s = 0;
    double c = 0;
    speedcube::sin_cos_pi_uniform(w, tables, s, c);
    worst_angle = std::max({worst_angle, std::fabs(s - std::sin(M_PI * t)), std::fabs(c - std::cos(M_PI * t))});
  }
  EXPECT_LT(worst_log, 1e-15) << "error of ln u";
  EXPECT_LT(worst_angle, 1e-15) << "absolute error of sin and cos";
  double worst_point = 0;
  for (std::uint64_t counter = 0; counter < 300000; ++counter) {
    const auto tabled = speedcube::four_points_tabled(counter * 977, 42, tables);
    const auto plain = speedcube::four_points(counter * 977, 42);
    worst_point = std::max({worst_point, std::fabs(tabled.x0 - plain.x0), std::fabs(tabled.x1 - plain.x1),
                            std::fabs(tabled.x2 - plain.x2), std::fabs(tabled.x3 - plain.x3)});
  }
  // The GPU methods allow 1e-9 between the points they drew and four_points on the host.
  EXPECT_LT(worst_point, 1e-12);
}

TEST(CudaMethods, EveryMethodNeedsAGpuAndEndsSkippedWithoutOne) {
  const bool has_device = no_device_reason().empty();
  int methods = 0;
  int nccl_methods = 0;
  for (const auto& m : Registry::instance().methods()) {
    if (m.family != "cuda" && m.family != "nccl") continue;
    ++methods;
    if (m.family == "nccl") ++nccl_methods;
    EXPECT_EQ(m.needs, std::vector<std::string>{"gpu"}) << m.full_name();
    if (has_device) continue;  // the GPU suite runs them there (docs/gpu.md)
    ParamMap params;
    for (const auto& p : m.params) params[p.name] = p.default_value;
    Context ctx(params);
    m.function(ctx);
    ASSERT_TRUE(ctx.skip_reason().has_value()) << m.full_name();
    EXPECT_EQ(ctx.skip_reason()->rfind("no CUDA device: ", 0), 0U) << *ctx.skip_reason();
    EXPECT_FALSE(ctx.failure().has_value()) << m.full_name();
  }
  EXPECT_GE(methods, 10);
#ifdef PERFZERO_TEST_NCCL
  EXPECT_EQ(nccl_methods, 6);  // all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv
#endif
}

}  // namespace
}  // namespace perfzero::cuda::cuda_test
