// The opencl family on a real OpenCL platform: Debian's PoCL exposes this machine's CPU as a device.
// Without any platform the device tests skip, except under CI=true, where they must run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "opencl/cl_call.hpp"
#include "opencl/devices.hpp"
#include "opencl/session.hpp"
#include "perfzero/registry.hpp"
#include "speedcube/speedcube.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::opencl::opencl_test {
namespace {

Context run(const std::string& method, const ParamMap& overrides) {
  const MethodInfo* info = Registry::instance().find(method);
  EXPECT_NE(info, nullptr) << method;
  ParamMap params;
  for (const auto& spec : info->params) params[spec.name] = spec.default_value;
  for (const auto& [name, value] : overrides) params[name] = value;
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

std::string extra(const Context& ctx, const std::string& key) {
  const auto it = ctx.extras().find(key);
  if (it == ctx.extras().end()) return "";
  if (const auto* s = std::get_if<std::string>(&it->second)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(&it->second)) return std::to_string(*i);
  return "?";
}

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

// The devices, or a skip saying why (a failure under CI=true: CI must test OpenCL for real).
#define REQUIRE_OPENCL_DEVICE(devices)                                                  \
  const std::vector<DeviceInfo> devices = find_devices();                               \
  if (devices.empty()) {                                                                \
    if (in_ci()) FAIL() << "no OpenCL platform under CI=true: install pocl-opencl-icd"; \
    GTEST_SKIP() << "no OpenCL platform (install pocl-opencl-icd)";                     \
  }

TEST(OpenClCall, AFailedCallNamesTheCallTheErrorAndFileLine) {
  try {
    PERFZERO_CL_CALL(clGetPlatformIDs(0, nullptr, nullptr));  // neither output asked for: invalid
    FAIL() << "no exception";
  } catch (const ClError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), CL_INVALID_VALUE);
    EXPECT_NE(what.find("clGetPlatformIDs(0, nullptr, nullptr) failed: CL_INVALID_VALUE (-30)"), std::string::npos)
        << what;
    EXPECT_NE(what.find("opencl_test.cpp:"), std::string::npos) << what;
  }
  EXPECT_EQ(error_name(-9999), "CL error -9999");
  EXPECT_EQ(error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
}

std::vector<DeviceInfo> laptop() {
  // The brief's laptop: a CPU through PoCL, two GPUs through their vendors' platforms.
  std::vector<DeviceInfo> d(3);
  d[0].platform_index = 0, d[0].platform_name = "Portable Computing Language", d[0].name = "pthread-AMD EPYC";
  d[1].platform_index = 1, d[1].platform_name = "AMD Accelerated Parallel Processing", d[1].name = "gfx1035";
  d[2].platform_index = 2, d[2].platform_name = "Intel(R) OpenCL HD Graphics", d[2].name = "Intel(R) UHD Graphics";
  return d;
}

TEST(OpenClDevices, PicksByIndexNameSubstringOrAll) {
  const auto devices = laptop();
  EXPECT_EQ(select_devices(devices, "", "0").devices.at(0).name, "pthread-AMD EPYC");
  EXPECT_EQ(select_devices(devices, "", "2").devices.at(0).name, "Intel(R) UHD Graphics");
  EXPECT_EQ(select_devices(devices, "amd accelerated", "0").devices.at(0).name, "gfx1035");
  EXPECT_EQ(select_devices(devices, "2", "uhd").devices.at(0).platform_index, 2);
  const Selection all = select_devices(devices, "", "all");
  EXPECT_TRUE(all.sweep);
  EXPECT_EQ(all.devices.size(), 3U);
  EXPECT_FALSE(select_devices(devices, "", "0").sweep);
}

TEST(OpenClDevices, NothingMatchingSaysWhatWasFound) {
  const auto devices = laptop();
  const Selection none = select_devices(devices, "", "nvidia");
  EXPECT_TRUE(none.devices.empty());
  EXPECT_NE(none.error.find("no OpenCL device matches device 'nvidia'"), std::string::npos) << none.error;
  EXPECT_NE(none.error.find("gfx1035"), std::string::npos) << none.error;
  EXPECT_NE(select_devices(devices, "9", "0").error.find("no OpenCL platform matches platform '9'"), std::string::npos);
  EXPECT_FALSE(select_devices(devices, "", "3").error.empty());
  EXPECT_FALSE(select_devices(devices, "", "-1").error.empty());
}

TEST(OpenClSession, ABuildErrorCarriesTheCompilerLog) {
  REQUIRE_OPENCL_DEVICE(devices);
  const Session session(devices.front());
  try {
    session.build("__kernel void broken(__global float* x) { x[0] = not_declared_anywhere; }");
    FAIL() << "the program built";
  } catch (const BuildError& e) {
    EXPECT_NE(e.log().find("not_declared_anywhere"), std::string::npos) << e.log();
    EXPECT_NE(std::string(e.what()).find("did not build on platform 0 device 0"), std::string::npos) << e.what();
  }
}

TEST(OpenClMethods, VecaddChecksEveryElementAndRecordsTheDevice) {
  REQUIRE_OPENCL_DEVICE(devices);
  const Context ctx =
      run("opencl.VectorAdd.benchmark_vecadd", {{"n", std::int64_t{50001}}, {"repetitions", std::int64_t{3}}});
  ASSERT_FALSE(ctx.failure().has_value()) << *ctx.failure();
  ASSERT_FALSE(ctx.skip_reason().has_value()) << *ctx.skip_reason();
  EXPECT_GT(metric(ctx, "gbps"), 0.0);
  EXPECT_EQ(extra(ctx, "device"), devices.front().name);
  for (const char* key : {"platform", "driver_version", "opencl_version", "compute_units", "clock_mhz",
                          "global_memory_bytes", "local_memory_bytes"}) {
    EXPECT_FALSE(extra(ctx, key).empty()) << key;
  }
  ASSERT_EQ(ctx.repetitions().size(), 1U);
  EXPECT_EQ(ctx.repetitions().front().name, "vecadd");
}

// Both ways of waiting give the same checked answer and are recorded; anything else is refused.
TEST(OpenClMethods, VecaddWaitsByPollingOrBlockingAsAsked) {
  REQUIRE_OPENCL_DEVICE(devices);
  for (const char* wait : {"poll", "block"}) {
    const Context ctx = run("opencl.VectorAdd.benchmark_vecadd", {{"n", std::int64_t{50001}},
                                                                  {"repetitions", std::int64_t{3}},
                                                                  {"wait", std::string(wait)},
                                                                  {"pause_us", std::int64_t{0}}});
    ASSERT_FALSE(ctx.failure().has_value()) << wait << ": " << *ctx.failure();
    EXPECT_GT(metric(ctx, "gbps"), 0.0) << wait;
    EXPECT_EQ(extra(ctx, "wait"), wait);
    EXPECT_EQ(extra(ctx, "pause_us"), "0");
  }
  const Context bad = run("opencl.VectorAdd.benchmark_vecadd", {{"wait", std::string("spin")}});
  ASSERT_TRUE(bad.failure().has_value());
  EXPECT_NE(bad.failure()->find("wait must be 'poll' or 'block', not 'spin'"), std::string::npos) << *bad.failure();
  const Context negative = run("opencl.VectorAdd.benchmark_vecadd", {{"pause_us", std::int64_t{-1}}});
  ASSERT_TRUE(negative.failure().has_value());
  EXPECT_NE(negative.failure()->find("pause_us must be between 0 and 1000000"), std::string::npos);
}

TEST(OpenClMethods, DeviceAllNamesEachDevicesResults) {
  REQUIRE_OPENCL_DEVICE(devices);
  const Context ctx =
      run("opencl.VectorAdd.benchmark_vecadd",
          {{"n", std::int64_t{4096}}, {"repetitions", std::int64_t{2}}, {"device", std::string("all")}});
  ASSERT_FALSE(ctx.failure().has_value()) << *ctx.failure();
  for (const auto& d : devices) {
    const std::string suffix = "@p" + std::to_string(d.platform_index) + "d" + std::to_string(d.device_index);
    EXPECT_GT(metric(ctx, "gbps" + suffix), 0.0) << suffix;
    EXPECT_EQ(extra(ctx, "device" + suffix), d.name);
  }
  EXPECT_EQ(extra(ctx, "devices"), std::to_string(devices.size()));
}

TEST(OpenClMethods, NoMatchingDeviceIsASkipWithTheReason) {
  REQUIRE_OPENCL_DEVICE(devices);
  const Context ctx = run("opencl.VectorAdd.benchmark_vecadd", {{"device", std::string("no-such-device")}});
  ASSERT_TRUE(ctx.skip_reason().has_value());
  EXPECT_NE(ctx.skip_reason()->find("no OpenCL device matches device 'no-such-device'"), std::string::npos);
}

TEST(OpenClMethods, CopiesAreCheckedAndTimed) {
  REQUIRE_OPENCL_DEVICE(devices);
  for (const char* method : {"opencl.Bandwidth.benchmark_copy", "opencl.Bandwidth.benchmark_host_to_device",
                             "opencl.Bandwidth.benchmark_device_to_host"}) {
    const Context ctx = run(method, {{"mib", std::int64_t{4}}, {"repetitions", std::int64_t{2}}});
    ASSERT_FALSE(ctx.failure().has_value()) << method << ": " << *ctx.failure();
    EXPECT_GT(metric(ctx, "gbps"), 0.0) << method;
  }
}

TEST(OpenClMethods, GemmFp32MatchesTheIntegerReference) {
  REQUIRE_OPENCL_DEVICE(devices);
  // Odd shapes: CLBlast pads to its tile sizes and must still write exactly C.
  const Context ctx = run(
      "opencl.Gemm.benchmark_gemm_fp32",
      {{"m", std::int64_t{67}}, {"n", std::int64_t{129}}, {"k", std::int64_t{301}}, {"repetitions", std::int64_t{2}}});
  ASSERT_FALSE(ctx.failure().has_value()) << *ctx.failure();
  EXPECT_GT(metric(ctx, "gflops"), 0.0);
  ASSERT_TRUE(ctx.framework().has_value());
  EXPECT_EQ(ctx.framework()->name, "clblast");
}

TEST(OpenClMethods, GemmFp16RunsOrSaysTheDeviceHasNoHalf) {
  REQUIRE_OPENCL_DEVICE(devices);
  const Context ctx = run(
      "opencl.Gemm.benchmark_gemm_fp16",
      {{"m", std::int64_t{64}}, {"n", std::int64_t{64}}, {"k", std::int64_t{64}}, {"repetitions", std::int64_t{2}}});
  ASSERT_FALSE(ctx.failure().has_value()) << *ctx.failure();
  if (devices.front().fp16) {
    EXPECT_GT(metric(ctx, "gflops"), 0.0);
  } else {
    ASSERT_TRUE(ctx.skip_reason().has_value());
    EXPECT_NE(ctx.skip_reason()->find("cl_khr_fp16"), std::string::npos) << *ctx.skip_reason();
  }
}

TEST(OpenClMethods, SpeedCubeAgreesWithTheCpuFamily) {
  REQUIRE_OPENCL_DEVICE(devices);
  if (!devices.front().fp64) GTEST_SKIP() << "device 0 has no fp64";
  const Context ctx =
      run("opencl.SpeedCube.benchmark_fused", {{"n", std::int64_t{2048}}, {"chunk", std::int64_t{512}}});
  ASSERT_FALSE(ctx.failure().has_value()) << *ctx.failure();
  speedcube::Problem p;
  p.n = 2048;
  p.chunk = 512;
  p.threads = 1;
  const speedcube::Sums cpu = speedcube::run_fused(p);
  const double cpu_mean = cpu.selected / static_cast<double>(cpu.selected_count) + 1.0;
  // The same Philox words and Box-Muller: only log/sin/cos rounding and the order of sums differ.
  EXPECT_NEAR(metric(ctx, "mean"), cpu_mean, 1e-9);
  EXPECT_NEAR(metric(ctx, "mean"), 11.0, speedcube::mean_error_bound(p.n));
  EXPECT_GT(metric(ctx, "points_per_second"), 0.0);
}

TEST(OpenClMethods, MnistTrainingStepLearns) {
  REQUIRE_OPENCL_DEVICE(devices);
  const Context ctx = run("opencl.Training.benchmark_mnist_cnn_step",
                          {{"batch", std::int64_t{16}}, {"steps", std::int64_t{10}}, {"warmups", std::int64_t{0}}});
  ASSERT_FALSE(ctx.failure().has_value()) << *ctx.failure();
  EXPECT_LT(metric(ctx, "last_loss"), 0.8 * metric(ctx, "first_loss"));
  EXPECT_GT(metric(ctx, "ms_per_step"), 0.0);
}

}  // namespace
}  // namespace perfzero::opencl::opencl_test
