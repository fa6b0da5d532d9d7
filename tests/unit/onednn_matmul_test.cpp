#include <gtest/gtest.h>

#include <cmath>

#include "onednn/cpu_peak.hpp"
#include "perfzero/registry.hpp"

namespace perfzero::onednn {
namespace {

Context run(const std::string& method, std::int64_t m, std::int64_t n, std::int64_t k) {
  const MethodInfo* info = Registry::instance().find(method);
  EXPECT_NE(info, nullptr);
  ParamMap params;
  for (const auto& spec : info->params) params[spec.name] = spec.default_value;
  params["m"] = m;
  params["n"] = n;
  params["k"] = k;
  params["repetitions"] = std::int64_t{2};
  Context ctx(params);
  info->function(ctx);
  return ctx;
}

double metric(const Context& ctx, const std::string& name) {
  for (const auto& m : ctx.metrics()) {
    if (m.name == name) return m.value;
  }
  return std::nan("");
}

TEST(OneDnnMatmul, Fp32MatchesTheIntegerReferenceAndReportsGflops) {
  // Odd shapes: oneDNN's tails as well as its blocked main loops.
  const Context ctx = run("onednn.Matmul.benchmark_matmul_fp32", 67, 129, 301);
  ASSERT_FALSE(ctx.failure().has_value()) << *ctx.failure();
  EXPECT_GT(metric(ctx, "gflops"), 0.0);
  EXPECT_GT(metric(ctx, "percent_of_peak"), 0.0);
  ASSERT_TRUE(ctx.framework().has_value());
  EXPECT_EQ(ctx.framework()->name, "oneDNN");
  EXPECT_EQ(ctx.framework()->version.rfind("2.", 0), 0U);
}

TEST(OneDnnMatmul, Bf16RunsOrSaysWhyNot) {
  const Context ctx = run("onednn.Matmul.benchmark_matmul_bf16", 64, 64, 256);
  EXPECT_FALSE(ctx.failure().has_value()) << ctx.failure().value_or("");
  EXPECT_TRUE(ctx.skip_reason().has_value() || metric(ctx, "gflops") > 0.0);
}

TEST(CpuPeak, FollowsTheIsaAndDataType) {
  const Peak avx2 = theoretical_peak(4, "f32", "avx2");
  EXPECT_EQ(avx2.flops_per_cycle, 32);
  const Peak amx = theoretical_peak(4, "bf16", "avx512_core_amx");
  EXPECT_EQ(amx.flops_per_cycle, 1024);
  EXPECT_NEAR(avx2.gflops, 4 * avx2.ghz * 32, 1e-9);
}

}  // namespace
}  // namespace perfzero::onednn
