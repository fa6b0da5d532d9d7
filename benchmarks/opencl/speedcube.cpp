// opencl.SpeedCube.benchmark_fused: the product brief's speed cube on an OpenCL device, fused as the
// CPU family's benchmark_fused is (nothing materialized). The same Philox4x32-10 keyed by the point
// index and the same Box-Muller, so its mean agrees with speedcube.SpeedCube.* to rounding and is
// held to the same bound (speedcube::mean_error_bound).
//
// The same polynomial log and sin/cos as the CPU kernels (pure arithmetic: they vectorize where
// libm calls would not); each work-group sums its points in local memory; the host adds the
// work-groups' partial sums in order.
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
// Each work-item takes W = 8 consecutive Philox groups as OpenCL vectors (double8, uint8): explicit
// vectors reach the CPU's SIMD units on PoCL whatever its work-item vectorizer makes of the code
// (written per point, PoCL left the loop scalar: 18 M points/s against 80-130 M like this), and a
// GPU compiler splits them into scalar lanes at no cost.
#define W 8
typedef double8 dv;
typedef uint8 uv;
typedef ulong8 lv;
typedef long8 sv;

// Natural log of x > 0 as the CPU family's log_positive: x = m 2^e, log m = 2 atanh((m-1)/(m+1)).
dv log_positive(dv x) {
  const lv bits = as_ulong8(x);
  dv m = as_double8((bits & 0x000FFFFFFFFFFFFFUL) | 0x3FF0000000000000UL);
  dv e = as_double8((bits >> 52) | 0x4330000000000000UL) - (4503599627370496.0 + 1023.0);
  const sv high = m > 1.4142135623730951;
  m = select(m, m * 0.5, high);
  e = select(e, e + 1.0, high);
  const dv s = (m - 1.0) / (m + 1.0);
  const dv s2 = s * s;
  dv series = 1.0 / 17.0;
  for (int k = 15; k >= 1; k -= 2) series = series * s2 + 1.0 / k;
  return e * 0.6931471805599453 + 2.0 * s * series;
}
// sin and cos of x in (-pi, pi) from the Taylor series of h = x/2, as the CPU family's sin_cos.
dv sin_cos(dv x, dv* cos_x) {
  const dv h = 0.5 * x, h2 = h * h;
  dv s = -1.0/121645100408832000.0;
  s = s*h2 + 1.0/355687428096000.0; s = s*h2 - 1.0/1307674368000.0; s = s*h2 + 1.0/6227020800.0; s = s*h2 - 1.0/39916800.0;
  s = s*h2 + 1.0/362880.0; s = s*h2 - 1.0/5040.0; s = s*h2 + 1.0/120.0; s = s*h2 - 1.0/6.0; s = s*h2 + 1.0; s *= h;
  dv c = 1.0/6402373705728000.0;
  c = c*h2 - 1.0/20922789888000.0; c = c*h2 + 1.0/87178291200.0; c = c*h2 - 1.0/479001600.0; c = c*h2 + 1.0/3628800.0;
  c = c*h2 - 1.0/40320.0; c = c*h2 + 1.0/720.0; c = c*h2 - 1.0/24.0; c = c*h2 - 0.5; c = c*h2 + 1.0;
  *cos_x = 1.0 - 2.0 * s * s;
  return 2.0 * s * c;
}
double hsum(dv v) { return ((v.s0 + v.s1) + (v.s2 + v.s3)) + ((v.s4 + v.s5) + (v.s6 + v.s7)); }

// Philox4x32-10 as benchmarks/speedcube/philox.hpp, counter = the group index (row * n + col) / 4.
// Work-item i takes groups first + 8i .. first + 8i + 7; partial[pf + work-group] = (sum of all its
// points, sum of the selected ones: points 0 and 2 of a group on an even row).
__kernel __attribute__((reqd_work_group_size(LOCAL, 1, 1)))
void speedcube(const ulong n, const ulong key, const ulong first, const ulong items, __global double* partial, const ulong pf) {
  __local double sum_all[LOCAL];
  __local double sum_sel[LOCAL];
  const size_t local_id = get_local_id(0);
  const ulong g0 = first + W * get_global_id(0);
  const lv g = g0 + (lv)(0, 1, 2, 3, 4, 5, 6, 7);
  uv c0 = convert_uint8(g), c1 = convert_uint8(g >> 32), c2 = 0, c3 = 0;
  uint k0 = (uint)key, k1 = (uint)(key >> 32);
  for (int round = 0; round < 10; ++round) {
    const uv hi0 = mul_hi((uv)0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const uv hi1 = mul_hi((uv)0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0; c1 = lo1; c2 = hi0 ^ c3 ^ k1; c3 = lo0;
    k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
  }
  const double inv = 1.0 / 4294967296.0, two_pi = 6.283185307179586;
  const dv ua = (convert_double8(c0) + 0.5) * inv, ub = (convert_double8(c1) + 0.5) * inv;
  const dv uc = (convert_double8(c2) + 0.5) * inv, ud = (convert_double8(c3) + 0.5) * inv;
  const dv ra = sqrt(-2.0 * log_positive(ua)), rc = sqrt(-2.0 * log_positive(uc));
  dv cb, cd;
  const dv sb = sin_cos(two_pi * (ub - 0.5), &cb), sd = sin_cos(two_pi * (ud - 0.5), &cd);
  const dv even = (10.0 + ra * cb) + (10.0 + rc * cd);
  const dv all = even + (10.0 + ra * sb) + (10.0 + rc * sd);
  // The W groups span at most two rows: those from `next_row` on are in the row after row0's.
  const ulong row0 = g0 * 4 / n;
  const ulong next_row = (row0 + 1) * (n / 4);
  const sv in_next = convert_long8(g >= next_row);
  const sv selected_lane = (row0 % 2 == 0) ? ~in_next : in_next;
  const int valid = get_global_id(0) < items;
  sum_all[local_id] = valid ? hsum(all) : 0.0;
  sum_sel[local_id] = valid ? hsum(select((dv)0.0, even, selected_lane)) : 0.0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t h = LOCAL / 2; h > 0; h /= 2) {
    if (local_id < h) { sum_all[local_id] += sum_all[local_id + h]; sum_sel[local_id] += sum_sel[local_id + h]; }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (local_id == 0) { partial[2 * (pf + get_group_id(0))] = sum_all[0]; partial[2 * (pf + get_group_id(0)) + 1] = sum_sel[0]; }
}
)CL";

const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed runs of the whole problem; the median counts",
    .repetitions = 1,
    .warmups = 0};

constexpr std::size_t kLocal = 64;         // work-items per group (halved while the device allows fewer); 64 was
                                           // fastest on PoCL (16: 49, 64: 134, 256: 74 M points/s at n = 4096)
constexpr std::size_t kGroupsPerItem = 8;  // W in the kernel

std::size_t round_up(std::size_t value, std::size_t step) { return (value + step - 1) / step * step; }

// The kernel launched band by band (`chunk` rows each: a band's counters are contiguous); each
// band's partial sums land after the previous bands', so the host adds them in one order.
class CubeRun {
 public:
  CubeRun(Session& s, const speedcube::Problem& p, std::size_t local)
      : s_(s),
        p_(p),
        local_(local),
        program_(s.build(kSource, fmt::format("-DLOCAL={}", local))),
        kernel_(s.kernel(program_, "speedcube")) {
    groups_per_band_ = static_cast<std::size_t>(p.chunk * p.n / 4);
    items_per_band_ = groups_per_band_ / kGroupsPerItem;  // exact: chunk * n / 4 is a multiple of 64
    work_groups_per_band_ = round_up(items_per_band_, local) / local;
    bands_ = static_cast<std::size_t>(p.n / p.chunk);
    host_.resize(bands_ * work_groups_per_band_ * 2);
    partial_ = s.buffer(host_.size() * sizeof(double));
  }

  // (sum of all points, sum of the selected points)
  std::pair<double, double> run() {
    for (std::size_t band = 0; band < bands_; ++band) {
      const cl_ulong first = band * groups_per_band_;
      const cl_ulong partial_first = band * work_groups_per_band_;
      set_args(kernel_, static_cast<cl_ulong>(p_.n), static_cast<cl_ulong>(p_.seed), first,
               static_cast<cl_ulong>(items_per_band_), partial_, partial_first);
      const std::size_t global = work_groups_per_band_ * local_;
      PERFZERO_CL_CALL(
          clEnqueueNDRangeKernel(s_.queue(), kernel_.get(), 1, nullptr, &global, &local_, 0, nullptr, nullptr));
    }
    s_.read(partial_, host_.data(), host_.size() * sizeof(double));
    double all = 0;
    double selected = 0;
    for (std::size_t i = 0; i < host_.size(); i += 2) {
      all += host_[i];
      selected += host_[i + 1];
    }
    return {all, selected};
  }

 private:
  Session& s_;
  speedcube::Problem p_;
  std::size_t local_;
  Program program_;
  Kernel kernel_;
  Buffer partial_;
  std::vector<double> host_;
  std::size_t groups_per_band_ = 0;
  std::size_t items_per_band_ = 0;
  std::size_t work_groups_per_band_ = 0;
  std::size_t bands_ = 0;
};

void report(Context& ctx, const speedcube::Problem& p, std::pair<double, double> sums, double seconds) {
  const double points = static_cast<double>(p.n) * static_cast<double>(p.n);
  const double mean = sums.second / (points / 4) + 1.0;
  const double all_mean = sums.first / points;
  const double bound = speedcube::mean_error_bound(p.n);
  ctx.report(Metric{"mean", mean, "1", 11.0 - bound, 11.0 + bound});
  ctx.report("mean_error", std::fabs(mean - 11.0), "1", Direction::lower_is_better);
  ctx.report("points_per_second", points / seconds, "points/s", Direction::higher_is_better);
  ctx.set_extra("n", p.n);
  ctx.set_extra("chunk", p.chunk);
  ctx.set_extra("mean_bound", bound);
  ctx.set_extra("all_points_mean", all_mean);
  if (std::fabs(all_mean - 10.0) > 6.0 / static_cast<double>(p.n)) {
    return ctx.fail(fmt::format("the mean of all points is {}; expected 10", all_mean));
  }
  if (std::fabs(mean - 11.0) > bound) ctx.fail(fmt::format("mean {} is further than {} from 11", mean, bound));
}

void speedcube_fused(Context& ctx, Session& s) {
  speedcube::Problem p;
  p.n = ctx.int_param("n");
  p.chunk = ctx.int_param("chunk");
  p.seed = static_cast<std::uint64_t>(ctx.int_param("seed"));
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  // The CPU family's rules (speedcube::validate lives with its kernels, which this worker does not
  // link), and n >= 32: a work-item's 8 groups then span at most two rows.
  if (p.n < 32 || p.chunk <= 0 || p.chunk % 16 != 0 || p.n % p.chunk != 0) {
    return ctx.fail("n must be at least 32, chunk a positive multiple of 16 and n a multiple of chunk");
  }
  if (!s.device().fp64) return ctx.skip("no double precision (cl_khr_fp64)");
  std::size_t local = kLocal;
  std::size_t device_max = 0;
  PERFZERO_CL_CALL(
      clGetDeviceInfo(s.device().id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof device_max, &device_max, nullptr));
  while (local > device_max) local /= 2;
  CubeRun cube(s, p, local);
  cube.run();  // warm-up, untimed: the first launch (PoCL finishes compiling for the work-group size here)
  std::vector<std::pair<double, double>> sums;
  const RepetitionSeries seconds = measure(ctx, options.named("run"), [&] { sums.push_back(cube.run()); });
  // Counter-based and summed in one order: every repetition must give the same sums bit for bit.
  for (const auto& each : sums) {
    if (each != sums.front()) return ctx.fail("two repetitions gave different sums");
  }
  ctx.set_extra("local_size", static_cast<std::int64_t>(local));
  report(ctx, p, sums.back(), seconds.median());
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
