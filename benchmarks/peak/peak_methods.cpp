// peak.CpuPeak.benchmark_fma: the CPU's FLOP peak per type, measured with FMA-throughput kernels on
// every allowed thread, beside the vendor's theoretical figure where the core is known. It measures
// afresh each time (it is the benchmark); other families read the run's cached figure instead.
#include <cstdint>
#include <string>

#include "peak/cpu_peak.hpp"
#include "perfzero/benchmark.hpp"

namespace perfzero::peak {

namespace {

void benchmark_fma(Context& ctx) {
  const int threads = params::threads_from(ctx);
  const auto ms = ctx.int_param("milliseconds");
  const auto repeats = ctx.int_param("repeats");
  if (ms < 1 || repeats < 1) return ctx.fail("milliseconds and repeats must be at least 1");
  const CpuPeak peak = measure_cpu_peak(threads, static_cast<double>(ms) / 1e3, static_cast<int>(repeats));
  for (DataType t : {DataType::fp64, DataType::fp32, DataType::bf16}) {
    const std::string name = to_string(t);
    if (const KernelFigure* k = peak.best(t)) {
      ctx.report("gflops_" + name, k->gflops, "GFLOP/s", perfzero::Direction::higher_is_better);
      ctx.set_extra("isa_" + name, k->isa);
    }
    if (const auto vendor = vendor_peak_for(peak, t, peak.threads)) {
      ctx.report("vendor_gflops_" + name, vendor->gflops, "GFLOP/s", perfzero::Direction::unspecified);
      ctx.set_extra("vendor_" + name, vendor->how);
    }
  }
  for (const auto& k : peak.kernels) {
    ctx.set_extra("gflops_" + k.isa + "_" + to_string(k.type), k.gflops);
  }
  ctx.report("clock_ghz", peak.ghz, "GHz", perfzero::Direction::unspecified);
  ctx.set_extra("threads", std::int64_t{peak.threads});
  ctx.set_extra("cores", std::int64_t{peak.cores});
  ctx.set_extra("cpu_model", peak.cpu_model);
  ctx.set_extra("vendor_core", peak.vendor ? peak.vendor->name : std::string("unknown: no vendor figure"));
  ctx.set_extra("method", peak.method);
}

const Registration kPeak{MethodInfo{
    "peak",
    "CpuPeak",
    "benchmark_fma",
    "FLOP/s peak per type (fp64, fp32, bf16) from FMA-throughput kernels on every thread, and the vendor figure",
    {params::threads(),
     {"milliseconds", ParamType::integer, std::int64_t{40}, "length of one timed run of one (ISA, type) kernel"},
     {"repeats", ParamType::integer, std::int64_t{4}, "timed runs per kernel; the best counts"}},
    benchmark_fma}};

}  // namespace

}  // namespace perfzero::peak
