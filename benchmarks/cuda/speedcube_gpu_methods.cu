// cuda.SpeedCube.*: the product brief's speed cube on one GPU and on all GPUs, fused and
// materialized; the same metrics and mean bound as the CPU family (speedcube.SpeedCube.*).
#include <cmath>
#include <string>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device.hpp"
#include "cuda/gpu_timing.hpp"
#include "cuda/speedcube_gpu.hpp"
#include "speedcube/speedcube.hpp"

namespace perfzero::cuda::speedcube {

namespace {

constexpr double kExpectedMean = 11.0;
// Device sincospi/log against the host's libm: a few ulps of 10.
constexpr double kSampleTolerance = 1e-9;

const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed runs of the whole problem; the median counts",
    .repetitions = 3,
    .warmups = 1};

Problem problem_from(const Context& ctx) {
  return {ctx.int_param("n"), ctx.int_param("chunk"), static_cast<std::uint64_t>(ctx.int_param("seed"))};
}

// The mean with the CPU family's bound (the harness fails the run outside it), and the mean of all
// points, which shows every point was drawn once.
bool report_result(Context& ctx, const Problem& p, const Sums& sums, double seconds) {
  const double points = static_cast<double>(p.n) * static_cast<double>(p.n);
  const double selected_points = static_cast<double>(p.n / 2) * static_cast<double>(p.n / 2);
  const double mean = sums.selected / selected_points + 1.0;
  const double all_mean = sums.all / points;
  const double bound = perfzero::speedcube::mean_error_bound(p.n);
  ctx.report(Metric{"mean", mean, "1", kExpectedMean - bound, kExpectedMean + bound});
  ctx.report("mean_error", std::fabs(mean - kExpectedMean), "1", Direction::lower_is_better);
  ctx.report("points_per_second", points / seconds, "points/s", Direction::higher_is_better);
  ctx.report("run_time", seconds, "s", Direction::lower_is_better);
  ctx.set_extra("n", p.n);
  ctx.set_extra("chunk", p.chunk);
  ctx.set_extra("mean_bound", bound);
  ctx.set_extra("all_points_mean", all_mean);
  if (!(std::fabs(all_mean - 10.0) <= 6.0 / static_cast<double>(p.n))) {
    ctx.fail("the mean of all points is " + std::to_string(all_mean) + "; expected 10 within " +
             std::to_string(6.0 / static_cast<double>(p.n)));
    return false;
  }
  if (!(std::fabs(mean - kExpectedMean) <= bound)) {
    ctx.fail("mean " + std::to_string(mean) + " is further than " + std::to_string(bound) + " from 11");
    return false;
  }
  return true;
}

bool same_bits(const Sums& a, const Sums& b) { return a.all == b.all && a.selected == b.selected; }

// Checks the generator on the GPU against its host path, and that repetitions agree bit for bit.
bool check_generator(Context& ctx, int device, const Problem& p) {
  const double worst = max_sample_difference(device, p);
  ctx.set_extra("sample_max_difference", worst);
  if (!(worst <= kSampleTolerance)) {
    ctx.fail("points drawn on the GPU differ from the reference generator by " + std::to_string(worst));
    return false;
  }
  return true;
}

void one_gpu(Context& ctx, Mode mode) {
  const int device = static_cast<int>(ctx.int_param("device"));
  if (skip_without_device(ctx, device)) return;
  const Problem p = problem_from(ctx);
  if (auto problem = check(p); !problem.empty()) return ctx.fail(problem);
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  record_environment(ctx, describe_device(device));
  if (!check_generator(ctx, device, p)) return;
  GpuTimer timer(device, ctx.bool_param("flush_l2"));
  SingleDeviceRun run(device, p, mode);
  const RepetitionSeries seconds = timer.measure(ctx, options.named("run"), [&](cudaStream_t s) { run.enqueue(s); });
  // The last repetition's sums; a second run checks they repeat exactly.
  const Sums sums = run.collect();
  run.enqueue(timer.stream());
  PERFZERO_CUDA_CALL(cudaStreamSynchronize(timer.stream()));
  if (!same_bits(sums, run.collect())) return ctx.fail("two runs gave different sums");
  if (mode == Mode::materialized) ctx.set_extra("chunks_held", chunks_held(device, p));
  timer.record_clocks(ctx);
  report_result(ctx, p, sums, seconds.median());
}

void all_gpus(Context& ctx, Mode mode) {
  if (skip_without_device(ctx, 0)) return;
  const Problem p = problem_from(ctx);
  if (auto problem = check(p); !problem.empty()) return ctx.fail(problem);
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  std::vector<int> devices(static_cast<std::size_t>(device_count()));
  for (std::size_t i = 0; i < devices.size(); ++i) devices[i] = static_cast<int>(i);
  record_environment(ctx, describe_device(0));
  for (const int d : devices) {
    if (!check_generator(ctx, d, p)) return;
  }
  // Events cannot span devices: one repetition is timed on the host clock from the first launch
  // to the last device's end, which includes launch and thread start-up (microseconds per chunk).
  std::vector<Sums> sums;
  const RepetitionSeries seconds =
      measure(ctx, options.named("run"), [&] { sums.push_back(run_on_devices(p, mode, devices)); });
  for (const Sums& s : sums) {
    if (!same_bits(s, sums.front())) return ctx.fail("two runs gave different sums");
  }
  ctx.set_extra("gpus", static_cast<std::int64_t>(devices.size()));
  report_result(ctx, p, sums.back(), seconds.median());
}

std::vector<ParamSpec> cube_params() {
  std::vector<ParamSpec> specs{
      {"n", ParamType::integer, std::int64_t{20000}, "array side (N x N points); the brief's full size is 100000"},
      {"chunk", ParamType::integer, std::int64_t{2000},
       "chunk side (C x C); a multiple of 16 that divides n; the brief's is 10000"},
      {"seed", ParamType::integer, std::int64_t{42}, "Philox key (the CPU family's draws for the same seed)"},
  };
  for (auto& spec : common_params()) specs.push_back(std::move(spec));
  for (auto& spec : params::measure_specs(kMeasure)) specs.push_back(std::move(spec));
  return specs;
}

const Registration kMethods[] = {
    Registration{gpu_method("SpeedCube", "benchmark_fused",
                            "Speed cube on one GPU, points generated and reduced in registers", cube_params(),
                            [](Context& c) { one_gpu(c, Mode::fused); })},
    Registration{gpu_method("SpeedCube", "benchmark_materialized",
                            "Speed cube on one GPU, chunks held in device memory then reduced", cube_params(),
                            [](Context& c) { one_gpu(c, Mode::materialized); })},
    Registration{gpu_method("SpeedCube", "benchmark_fused_all_gpus",
                            "Speed cube on every GPU (a thread and stream each), fused", cube_params(),
                            [](Context& c) { all_gpus(c, Mode::fused); })},
    Registration{gpu_method("SpeedCube", "benchmark_materialized_all_gpus",
                            "Speed cube on every GPU (a thread and stream each), materialized", cube_params(),
                            [](Context& c) { all_gpus(c, Mode::materialized); })},
};

}  // namespace

}  // namespace perfzero::cuda::speedcube
