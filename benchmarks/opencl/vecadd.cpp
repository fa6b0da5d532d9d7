// opencl.VectorAdd.benchmark_vecadd: c = a + b on float arrays, the product brief's "hello world"
// (50,000 floats through PyOpenCL), at that size and larger ones. Each repetition is one kernel
// launch waited for, as PyOpenCL's example times it; every element is checked. `wait` chooses how:
// `poll` (the launch's status, then a blocking wait after 200 us: Session::launch_and_wait) or `block`
// (clFinish at once, as PyOpenCL's queue.finish()), so the host's share of a short launch can be seen.
// Between two launches the host pauses `pause_us`, untimed, as a program does its own work between
// kernels (PyOpenCL's interpreter takes a few microseconds there): on PoCL a launch issued the instant
// the last one completed contends with the device's threads still finishing that one, and measured
// 39 us against 22 us after a 3 us pause (docs/performance.md). `pause_us: 0` times launches back to back.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "opencl/device_runner.hpp"

namespace perfzero::opencl {

namespace {

constexpr const char* kSource = R"CL(
__kernel void vecadd(__global const float* a, __global const float* b, __global float* c, const uint n) {
  const size_t i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
)CL";

// Longer than a short launch takes (30 to 60 us on PoCL here), short enough that a long one
// (milliseconds) loses nothing to the polling.
constexpr std::chrono::microseconds kPollFor{200};

const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed kernel launches after the warm-ups; the median counts",
    .repetitions = 20,
    .warmups = 3,
    .min_time = 0.2};

// Halves and quarters: every sum is exact in float, so the check is equality.
float input_a(std::int64_t i) { return static_cast<float>(i % 1000) * 0.5F; }
float input_b(std::int64_t i) { return static_cast<float>(i % 7) * 0.25F; }

void vecadd(Context& ctx, Session& s) {
  const std::int64_t n = ctx.int_param("n");
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  if (n < 1 || n > (std::int64_t{1} << 31)) return ctx.fail("n must be between 1 and 2^31");
  const auto bytes = static_cast<std::size_t>(n) * sizeof(float);
  if (3 * static_cast<std::int64_t>(bytes) > s.device().global_memory_bytes) {
    return ctx.skip("three arrays of " + std::to_string(n) + " floats do not fit in the device's memory");
  }
  std::vector<float> a(static_cast<std::size_t>(n));
  std::vector<float> b(a.size());
  for (std::int64_t i = 0; i < n; ++i) {
    a[static_cast<std::size_t>(i)] = input_a(i);
    b[static_cast<std::size_t>(i)] = input_b(i);
  }
  const Buffer da = s.buffer(bytes, CL_MEM_READ_ONLY);
  const Buffer db = s.buffer(bytes, CL_MEM_READ_ONLY);
  const Buffer dc = s.buffer(bytes, CL_MEM_WRITE_ONLY);
  s.write(da, a.data(), bytes);
  s.write(db, b.data(), bytes);
  const Program program = s.build(kSource);
  const Kernel kernel = s.kernel(program, "vecadd");
  set_args(kernel, da, db, dc, static_cast<cl_uint>(n));
  const std::string& wait = ctx.string_param("wait");
  if (wait != "poll" && wait != "block") return ctx.fail("wait must be 'poll' or 'block', not '" + wait + "'");
  const bool poll = wait == "poll";
  const std::int64_t pause_us = ctx.int_param("pause_us");
  if (pause_us < 0 || pause_us > 1'000'000) return ctx.fail("pause_us must be between 0 and 1000000");
  // A busy pause: sleeping would cost a thread wake-up, tens of microseconds, and vary with it.
  const auto pause = [pause = std::chrono::microseconds(pause_us)] {
    const auto until = std::chrono::steady_clock::now() + pause;
    while (std::chrono::steady_clock::now() < until) {
    }
  };
  const RepetitionSeries seconds = measure(ctx, options.named("vecadd"), pause, [&] {
    if (poll) {
      s.launch_and_wait(kernel, static_cast<std::size_t>(n), kPollFor);
    } else {
      s.launch(kernel, static_cast<std::size_t>(n));
      s.finish();
    }
  });
  std::vector<float> c(a.size());
  s.read(dc, c.data(), bytes);
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c[i] != a[i] + b[i]) {
      return ctx.fail("c[" + std::to_string(i) + "] = " + std::to_string(c[i]) + ", expected " +
                      std::to_string(a[i] + b[i]));
    }
  }
  ctx.report("gbps", 3.0 * static_cast<double>(bytes) / seconds.median() / 1e9, "GB/s", Direction::higher_is_better);
  ctx.report("microseconds", seconds.median() * 1e6, "us", Direction::lower_is_better);
  ctx.report("elements_per_second", static_cast<double>(n) / seconds.median(), "elements/s",
             Direction::higher_is_better);
  ctx.set_extra("n", n);
  ctx.set_extra("wait", wait);
  ctx.set_extra("pause_us", pause_us);
}

std::vector<ParamSpec> vecadd_params() {
  std::vector<ParamSpec> own{
      {"n", ParamType::integer, std::int64_t{50000}, "floats per array (the brief's 50,000)"},
      {"wait", ParamType::string, std::string{"poll"},
       "how the host waits for a launch: 'poll' its status for up to 200 us, then block; 'block' at once (clFinish)"},
      {"pause_us", ParamType::integer, std::int64_t{3},
       "untimed busy pause before each launch, in microseconds (0: launches back to back)"}};
  for (auto& spec : params::measure_specs(kMeasure)) own.push_back(std::move(spec));
  return with_device_params(std::move(own));
}

const Registration kVecadd{
    MethodInfo{"opencl", "VectorAdd", "benchmark_vecadd",
               "c = a + b on float arrays (one kernel launch per repetition), every element checked", vecadd_params(),
               [](Context& ctx) { run_on_selected_devices(ctx, vecadd); }}};

}  // namespace

}  // namespace perfzero::opencl
