// speedcube.SpeedCube.*: registration, parameters, warm-up, validation and metrics.
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/parallel.hpp"
#include "perfzero/benchmark.hpp"
#include "speedcube/speedcube.hpp"
#include "speedcube/speedcube_result.hpp"

namespace perfzero::speedcube {

namespace {

// One run of the whole problem by default: at the brief's full size it takes minutes. Warm-up is a
// one-chunk run (or the pre-faulting), not a whole repetition.
const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed runs of the whole problem; the median counts",
    .repetitions = 1,
    .warmups = 0};

Problem problem_from(Context& ctx, bool single_thread) {
  Problem p;
  p.n = ctx.int_param("n");
  p.chunk = ctx.int_param("chunk");
  p.seed = static_cast<std::uint64_t>(ctx.int_param("seed"));
  p.threads = single_thread ? 1 : params::threads_from(ctx);
  return p;
}

// Times `run` with perfzero::measure and returns the sums of its last repetition, or nothing after
// failing the context when two repetitions disagree: the generator is counter-based and the sums
// are added in chunk order, so every repetition must give the same sums bit for bit.
std::optional<Sums> measure_sums(Context& ctx, const MeasureOptions& options, const std::function<Sums()>& run,
                                 RepetitionSeries& seconds) {
  std::vector<Sums> all;
  seconds = measure(ctx, options, [&] { all.push_back(run()); });
  for (const Sums& s : all) {
    if (s.selected != all.front().selected || s.all != all.front().all) {
      ctx.fail("two repetitions gave different sums: " + std::to_string(all.front().all) + " and " +
               std::to_string(s.all));
      return std::nullopt;
    }
  }
  return all.back();
}

void fused(Context& ctx, bool single_thread) {
  const Problem p = problem_from(ctx, single_thread);
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  if (auto problem = validate(p); !problem.empty()) return ctx.fail(problem);
  Problem warm = p;
  warm.n = p.chunk;  // one chunk: code, caches and threads warmed, untimed
  run_fused(warm);
  RepetitionSeries seconds;
  const auto sums = measure_sums(
      ctx, options.named("run"), [&] { return run_fused(p); }, seconds);
  if (sums) report_result(ctx, p, *sums, seconds.median());
}

std::uint64_t available_memory_bytes() {
  const auto pages = ::sysconf(_SC_AVPHYS_PAGES);
  const auto page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

void materialized(Context& ctx, bool single_thread) {
  const Problem p = problem_from(ctx, single_thread);
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  if (auto problem = validate(p); !problem.empty()) return ctx.fail(problem);
  const auto bytes = static_cast<std::uint64_t>(p.n) * static_cast<std::uint64_t>(p.n) * sizeof(double);
  const auto available = available_memory_bytes();
  if (available > 0 && bytes > available / 10 * 9) {
    return ctx.skip("the array needs " + std::to_string(bytes >> 20) + " MiB; only " + std::to_string(available >> 20) +
                    " MiB of memory is available");
  }
  std::unique_ptr<double[]> array(new double[static_cast<std::size_t>(p.n * p.n)]);
  // Fault the pages in first, each thread its share (first touch places them near it), untimed:
  // the timed passes measure generating and reducing, not the kernel zeroing pages.
  bench::run_on_threads(p.threads, [&](int t) {
    const std::int64_t rows = p.n / p.threads + 1;
    const std::int64_t first = std::min(p.n, t * rows);
    const std::int64_t last = std::min(p.n, first + rows);
    std::memset(array.get() + first * p.n, 0, static_cast<std::size_t>((last - first) * p.n) * sizeof(double));
  });
  // The whole run is the measured series; its two passes become series of their own.
  RepetitionSeries generate{.name = "generate"};
  RepetitionSeries reduce{.name = "reduce"};
  RepetitionSeries seconds;
  const auto sums = measure_sums(
      ctx, options.named("run"),
      [&] {
        MaterializedTimes times;
        const Sums result = run_materialized(p, array.get(), times);
        generate.values.push_back(times.generate_seconds);
        reduce.values.push_back(times.reduce_seconds);
        return result;
      },
      seconds);
  if (!sums) return;
  for (RepetitionSeries* pass : {&generate, &reduce}) {
    // Warm-up values come first; only the timed repetitions' are kept, as measure() keeps them.
    pass->values.erase(pass->values.begin(), pass->values.end() - static_cast<std::ptrdiff_t>(seconds.size()));
    pass->warmups = seconds.warmups;
    pass->stopped_by = seconds.stopped_by;
    ctx.record_repetitions(*pass);
  }
  if (!report_result(ctx, p, *sums, seconds.median())) return;
  // The reduction reads every second row whole (cache lines hold both columns of each pair).
  const std::int64_t rows_read = p.n / 2;  // n is a multiple of 16: exact
  const double bytes_read = static_cast<double>(rows_read) * static_cast<double>(p.n) * sizeof(double);
  ctx.report("reduce_bandwidth", bytes_read / reduce.median() / 1e9, "GB/s", perfzero::Direction::higher_is_better);
  ctx.report("generate_seconds", generate.median(), "s", perfzero::Direction::lower_is_better);
  ctx.report("reduce_seconds", reduce.median(), "s", perfzero::Direction::lower_is_better);
}

std::vector<ParamSpec> params(bool with_threads) {
  std::vector<ParamSpec> specs{
      {"n", ParamType::integer, std::int64_t{20000}, "array side (N x N points); the brief's full size is 100000"},
      {"chunk", ParamType::integer, std::int64_t{2000}, "chunk side (C x C); a multiple of 16 that divides n"},
      {"seed", ParamType::integer, std::int64_t{42}, "Philox key"},
  };
  if (with_threads) specs.push_back(params::threads());
  for (auto& spec : params::measure_specs(kMeasure)) specs.push_back(std::move(spec));
  return specs;
}

MethodInfo method(std::string name, std::string description, bool with_threads, MethodFunction fn) {
  return {"speedcube", "SpeedCube", std::move(name), std::move(description), params(with_threads), fn};
}

const Registration kMethods[] = {
    Registration{method("benchmark_fused_1_thread", "Speed cube, one thread, each chunk generated and reduced in cache",
                        false, [](Context& c) { fused(c, true); })},
    Registration{method("benchmark_fused", "Speed cube on all allowed threads, chunks generated and reduced in cache",
                        true, [](Context& c) { fused(c, false); })},
    Registration{method("benchmark_materialized_1_thread",
                        "Speed cube, one thread, whole array held in memory then reduced (bandwidth-bound)", false,
                        [](Context& c) { materialized(c, true); })},
    Registration{method("benchmark_materialized",
                        "Speed cube on all allowed threads, whole array held in memory then reduced", true,
                        [](Context& c) { materialized(c, false); })},
};

}  // namespace

}  // namespace perfzero::speedcube
