// stream.Stream.benchmark_stream: the machine's memory bandwidth, which other methods compare to.
#include <unistd.h>

#include <string>

#include "perfzero/benchmark.hpp"
#include "stream/stream.hpp"

namespace perfzero::stream {

namespace {

// The first pass of each kernel warms up and is not counted, as in STREAM.
const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed passes of each kernel after the warm-ups; the best counts, as in STREAM",
    .repetitions = 9,
    .warmups = 1};

void stream_method(Context& ctx) {
  Settings s;
  s.n = ctx.int_param("n");
  s.threads = params::threads_from(ctx);
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  if (s.n < 1024) return ctx.fail("n must be at least 1024");
  const auto bytes = 3 * static_cast<std::uint64_t>(s.n) * sizeof(double);
  const auto pages = ::sysconf(_SC_AVPHYS_PAGES);
  const auto available =
      static_cast<std::uint64_t>(pages > 0 ? pages : 0) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  if (available > 0 && bytes > available / 10 * 9) {
    return ctx.skip("the arrays need " + std::to_string(bytes >> 20) + " MiB; only " + std::to_string(available >> 20) +
                    " MiB is available");
  }
  const Bandwidth bw = run_stream(ctx, s, options);
  if (!bw.error.empty()) return ctx.fail(bw.error);
  // Triad first: the first rate a method reports is its main metric, the one `perfzero report` ranks
  // by, and triad (two loads, one store, a multiply-add) is the figure STREAM itself is quoted by.
  ctx.report("triad_bandwidth", bw.triad, "GB/s", perfzero::Direction::higher_is_better);
  ctx.report("copy_bandwidth", bw.copy, "GB/s", perfzero::Direction::higher_is_better);
  ctx.report("scale_bandwidth", bw.scale, "GB/s", perfzero::Direction::higher_is_better);
  ctx.report("add_bandwidth", bw.add, "GB/s", perfzero::Direction::higher_is_better);
  ctx.set_extra("threads", std::int64_t{s.threads});
  ctx.set_extra("array_bytes", static_cast<std::int64_t>(s.n * 8));
}

std::vector<ParamSpec> stream_params() {
  std::vector<ParamSpec> specs{
      {"n", ParamType::integer, std::int64_t{1} << 25, "elements per array (3 arrays of doubles)"}, params::threads()};
  for (auto& spec : params::measure_specs(kMeasure)) specs.push_back(std::move(spec));
  return specs;
}

const Registration kStream{
    MethodInfo{"stream", "Stream", "benchmark_stream",
               "STREAM copy, scale, add and triad bandwidth on all allowed threads (best of repetitions)",
               stream_params(), stream_method}};

}  // namespace

}  // namespace perfzero::stream
