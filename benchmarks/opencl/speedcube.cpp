// opencl.SpeedCube.benchmark_fused: the product brief's speed cube on an OpenCL device, fused as the
// CPU family's benchmark_fused is (nothing materialized). The same Philox4x32-10 keyed by the point
// index and the same Box-Muller, so its mean agrees with speedcube.SpeedCube.* to rounding and is
// held to the same bound (speedcube::mean_error_bound).
//
// One work-item generates one Philox group (four points, as the CPU code does), so the loop over
// work-items is the innermost loop and PoCL vectorizes it with SLEEF's log/sin/cos; each work-group
// sums its points in local memory; the host adds the groups' partial sums in order.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "opencl/device_runner.hpp"
#include "speedcube/speedcube.hpp"

namespace perfzero::opencl {

namespace {

constexpr const char* kSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Philox4x32-10 as benchmarks/speedcube/philox.hpp: counter (c0, c1) = the group index, key (k0, k1).
uint4 philox4x32_10(ulong counter, ulong key) {
  uint c0 = (uint)counter, c1 = (uint)(counter >> 32), c2 = 0, c3 = 0;
  uint k0 = (uint)key, k1 = (uint)(key >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint hi0 = mul_hi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const uint hi1 = mul_hi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return (uint4)(c0, c1, c2, c3);
}

// Groups [first, first + count) of the n x n array; partial[group] = (sum of all points, sum of the
// selected ones: even rows, even columns, i.e. points 0 and 2 of a group on an even row).
__kernel __attribute__((reqd_work_group_size(LOCAL, 1, 1)))
void speedcube(const ulong n, const ulong key, const ulong first, const ulong count, __global double2* partial,
               const ulong partial_first) {
  __local double2 sums[LOCAL];
  const ulong local_id = get_local_id(0);
  const ulong g = first + get_global_id(0);
  double all = 0.0, selected = 0.0;
  if (get_global_id(0) < count) {
    const uint4 w = philox4x32_10(g, key);
    const double inv = 1.0 / 4294967296.0, two_pi = 6.283185307179586;
    const double ua = ((double)w.x + 0.5) * inv, ub = ((double)w.y + 0.5) * inv;
    const double uc = ((double)w.z + 0.5) * inv, ud = ((double)w.w + 0.5) * inv;
    const double ra = sqrt(-2.0 * log(ua)), rc = sqrt(-2.0 * log(uc));
    const double xb = two_pi * (ub - 0.5), xd = two_pi * (ud - 0.5);
    const double even = (10.0 + ra * cos(xb)) + (10.0 + rc * cos(xd));
    all = even + (10.0 + ra * sin(xb)) + (10.0 + rc * sin(xd));
    selected = ((g * 4 / n) % 2 == 0) ? even : 0.0;
  }
  sums[local_id] = (double2)(all, selected);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (ulong half_size = LOCAL / 2; half_size > 0; half_size /= 2) {
    if (local_id < half_size) sums[local_id] += sums[local_id + half_size];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (local_id == 0) partial[partial_first + get_group_id(0)] = sums[0];
}
)CL";

const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed runs of the whole problem; the median counts",
    .repetitions = 1,
    .warmups = 0};

constexpr std::size_t kLocal = 128;  // a power of two every OpenCL 1.2 device takes (the minimum maximum is 1)

std::size_t round_up(std::size_t value, std::size_t step) { return (value + step - 1) / step * step; }

struct Launches {
  std::size_t groups_per_band = 0;  // Philox groups in `chunk` rows
  std::size_t work_groups_per_band = 0;
  std::size_t bands = 0;
};

void speedcube_fused(Context& ctx, Session& s) {
  speedcube::Problem p;
  p.n = ctx.int_param("n");
  p.chunk = ctx.int_param("chunk");
  p.seed = static_cast<std::uint64_t>(ctx.int_param("seed"));
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  // The CPU family's rules (speedcube::validate lives with its kernels, which this worker does not link).
  if (p.n <= 0 || p.chunk <= 0 || p.chunk % 16 != 0 || p.n % p.chunk != 0) {
    return ctx.fail("n and chunk must be positive, chunk a multiple of 16 and n a multiple of chunk");
  }
  if (!s.device().fp64) return ctx.skip(s.device().label() + " has no double precision (cl_khr_fp64)");
  std::size_t local = kLocal;
  std::size_t device_max = 0;
  PERFZERO_CL_CALL(
      clGetDeviceInfo(s.device().id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof device_max, &device_max, nullptr));
  while (local > device_max) local /= 2;
  const Program program = s.build(kSource, fmt::format("-DLOCAL={}", local));
  const Kernel kernel = s.kernel(program, "speedcube");
  // One launch per band of `chunk` rows: the counters of a band are contiguous.
  Launches l;
  l.groups_per_band = static_cast<std::size_t>(p.chunk * p.n / 4);
  l.work_groups_per_band = round_up(l.groups_per_band, local) / local;
  l.bands = static_cast<std::size_t>(p.n / p.chunk);
  const Buffer partial = s.buffer(l.bands * l.work_groups_per_band * 2 * sizeof(double));
  std::vector<double> host(l.bands * l.work_groups_per_band * 2);
  const auto run = [&] {
    for (std::size_t band = 0; band < l.bands; ++band) {
      const cl_ulong first = band * l.groups_per_band;
      // The band's partial sums land after the previous bands', so the host adds them in one order.
      const cl_ulong partial_first = band * l.work_groups_per_band;
      set_args(kernel, static_cast<cl_ulong>(p.n), static_cast<cl_ulong>(p.seed), first,
               static_cast<cl_ulong>(l.groups_per_band), partial, partial_first);
      const std::size_t global = l.work_groups_per_band * local;
      PERFZERO_CL_CALL(
          clEnqueueNDRangeKernel(s.queue(), kernel.get(), 1, nullptr, &global, &local, 0, nullptr, nullptr));
    }
    s.read(partial, host.data(), host.size() * sizeof(double));
  };
  run();  // warm-up: the kernel's first launch (PoCL compiles per work-group size here)
  std::vector<double> sums;
  const RepetitionSeries seconds = measure(ctx, options.named("run"), [&] {
    run();
    double all = 0;
    double selected = 0;
    for (std::size_t i = 0; i < host.size(); i += 2) {
      all += host[i];
      selected += host[i + 1];
    }
    sums = {all, selected};
  });
  const double points = static_cast<double>(p.n) * static_cast<double>(p.n);
  const double mean = sums[1] / (points / 4) + 1.0;
  const double all_mean = sums[0] / points;
  const double bound = speedcube::mean_error_bound(p.n);
  ctx.report(Metric{"mean", mean, "1", 11.0 - bound, 11.0 + bound});
  ctx.report("mean_error", std::fabs(mean - 11.0), "1");
  ctx.report("points_per_second", points / seconds.median(), "points/s");
  ctx.set_extra("n", p.n);
  ctx.set_extra("chunk", p.chunk);
  ctx.set_extra("mean_bound", bound);
  ctx.set_extra("all_points_mean", all_mean);
  ctx.set_extra("local_size", static_cast<std::int64_t>(local));
  if (std::fabs(all_mean - 10.0) > 6.0 / static_cast<double>(p.n)) {
    return ctx.fail(fmt::format("the mean of all points is {}; expected 10", all_mean));
  }
  if (std::fabs(mean - 11.0) > bound) ctx.fail(fmt::format("mean {} is further than {} from 11", mean, bound));
}

std::vector<ParamSpec> speedcube_params() {
  std::vector<ParamSpec> own{
      {"n", ParamType::integer, std::int64_t{20000}, "array side (N x N points); the brief's full size is 100000"},
      {"chunk", ParamType::integer, std::int64_t{2000}, "rows per kernel launch; a multiple of 16 that divides n"},
      {"seed", ParamType::integer, std::int64_t{42}, "Philox key"},
  };
  for (auto& spec : params::measure_specs(kMeasure)) own.push_back(std::move(spec));
  return with_device_params(std::move(own));
}

const Registration kFused{MethodInfo{
    "opencl", "SpeedCube", "benchmark_fused",
    "Speed cube on the device: points generated (Philox4x32-10, Box-Muller) and reduced per work-group, fp64",
    speedcube_params(), [](Context& ctx) { run_on_selected_devices(ctx, speedcube_fused); }}};

}  // namespace

}  // namespace perfzero::opencl
