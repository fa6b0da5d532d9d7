// stream.Stream.benchmark_stream: the machine's memory bandwidth, which other methods compare to.
#include <unistd.h>

#include <string>

#include "common/threads.hpp"
#include "perfzero/benchmark.hpp"
#include "stream/stream.hpp"

namespace perfzero::stream {

namespace {

void stream_method(Context& ctx) {
  Settings s;
  s.n = ctx.int_param("n");
  s.repetitions = static_cast<int>(ctx.int_param("repetitions"));
  s.threads = bench::threads_param(ctx);
  if (s.n < 1024 || s.repetitions < 2) return ctx.fail("n must be at least 1024 and repetitions at least 2");
  const auto bytes = 3 * static_cast<std::uint64_t>(s.n) * sizeof(double);
  const auto pages = ::sysconf(_SC_AVPHYS_PAGES);
  const auto available =
      static_cast<std::uint64_t>(pages > 0 ? pages : 0) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  if (available > 0 && bytes > available / 10 * 9) {
    return ctx.skip("the arrays need " + std::to_string(bytes >> 20) + " MiB; only " + std::to_string(available >> 20) +
                    " MiB is available");
  }
  const Bandwidth bw = run_stream(s);
  if (!bw.error.empty()) return ctx.fail(bw.error);
  ctx.report("copy_bandwidth", bw.copy, "GB/s");
  ctx.report("scale_bandwidth", bw.scale, "GB/s");
  ctx.report("add_bandwidth", bw.add, "GB/s");
  ctx.report("triad_bandwidth", bw.triad, "GB/s");
  ctx.set_extra("threads", std::int64_t{s.threads});
  ctx.set_extra("array_bytes", static_cast<std::int64_t>(s.n * 8));
}

const Registration kStream{
    MethodInfo{"stream",
               "Stream",
               "benchmark_stream",
               "STREAM copy, scale, add and triad bandwidth on all allowed threads (best of repetitions)",
               {{"n", ParamType::integer, std::int64_t{1} << 25, "elements per array (3 arrays of doubles)"},
                {"repetitions", ParamType::integer, std::int64_t{10}, "repetitions; the first is not counted"},
                {"threads", ParamType::integer, std::int64_t{0}, "threads; 0: all the CPUs allowed"}},
               stream_method}};

}  // namespace

}  // namespace perfzero::stream
