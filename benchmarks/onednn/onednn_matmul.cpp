// onednn.Matmul.*: oneDNN matrix multiply, fp32 and bf16, checked exactly and reported against the
// CPU's measured peak (peak/cpu_peak.hpp) and, where the core is known, the vendor's figure.
#include <omp.h>

#include <cstdint>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <vector>

#include "onednn/onednn_info.hpp"
#include "peak/cpu_peak.hpp"
#include "perfzero/benchmark.hpp"
#include "perfzero/cpus.hpp"

namespace perfzero::onednn {

namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

// Small integers: every product and every sum up to K = 2^20 is exact in fp32 (and the inputs in
// bf16), so sampled entries must equal the integer reference exactly.
float entry(std::int64_t i, std::int64_t j, std::uint32_t salt) {
  std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761U ^ static_cast<std::uint32_t>(j) * 2246822519U ^ salt;
  h ^= h >> 15;
  h *= 2246822519U;
  h ^= h >> 13;
  return static_cast<float>(static_cast<int>(h % 5) - 2);  // -2 .. 2
}

// Exact check of 64 entries spread over C against an integer reference; empty when all match.
std::string check_entries(const float* pc, std::int64_t m, std::int64_t n, std::int64_t k) {
  for (int s = 0; s < 64; ++s) {
    const std::int64_t i = (static_cast<std::int64_t>(s) * 7919) % m;
    const std::int64_t j = (static_cast<std::int64_t>(s) * 104729) % n;
    std::int64_t expected = 0;
    for (std::int64_t l = 0; l < k; ++l) {
      expected += static_cast<std::int64_t>(entry(i, l, 1)) * static_cast<std::int64_t>(entry(l, j, 2));
    }
    if (static_cast<double>(pc[i * n + j]) != static_cast<double>(expected)) {
      return "C[" + std::to_string(i) + "][" + std::to_string(j) + "] = " + std::to_string(pc[i * n + j]) +
             ", expected " + std::to_string(expected);
    }
  }
  return "";
}

// A (m x k) or B (k x n) in fp32, reordered into the primitive's type.
dnnl::memory input(const dnnl::engine& engine, dnnl::stream& stream, const dnnl::memory::desc& md, std::int64_t rows,
                   std::int64_t cols, std::uint32_t salt) {
  dnnl::memory plain({{rows, cols}, dt::f32, tag::ab}, engine);
  auto* p = static_cast<float*>(plain.get_data_handle());
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) p[i * cols + j] = entry(i, j, salt);
  }
  dnnl::memory out(md, engine);
  dnnl::reorder(plain, out).execute(stream, plain, out);
  return out;
}

const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed runs after the warm-ups; the median counts", .repetitions = 5};

// percent_of_peak against the run's measured peak (cpu_peak.json, measured once per run) for the same
// type and thread count; percent_of_vendor_peak beside it where the core is known. A CPU without
// bf16 dot products has no bf16 peak: bf16 is then set against the fp32 peak, and the extras say so.
void report_percent_of_peak(Context& ctx, const std::string& dtype, double gflops, int threads) {
  std::string origin;
  const peak::CpuPeak cpu = peak::run_cpu_peak(allowed_threads(), &origin);
  auto type = dtype == "bf16" ? peak::DataType::bf16 : peak::DataType::fp32;
  if (type == peak::DataType::bf16 && cpu.best(type) == nullptr) {
    type = peak::DataType::fp32;
    ctx.set_extra("peak_type", std::string("fp32: this CPU has no bf16 dot-product instruction to measure"));
  }
  if (const auto measured = peak::measured_peak_for(cpu, type, threads)) {
    ctx.report("percent_of_peak", 100.0 * gflops / measured->gflops, "%", perfzero::Direction::higher_is_better);
    ctx.set_extra("peak_gflops", measured->gflops);
    ctx.set_extra("peak_formula", measured->how + " (" + origin + ")");
  }
  if (const auto vendor = peak::vendor_peak_for(cpu, type, threads)) {
    ctx.report("percent_of_vendor_peak", 100.0 * gflops / vendor->gflops, "%", perfzero::Direction::higher_is_better);
    ctx.set_extra("vendor_peak_gflops", vendor->gflops);
    ctx.set_extra("vendor_peak_formula", vendor->how);
  } else {
    ctx.set_extra("vendor_peak_formula", std::string("none: core not in the vendor table (") + cpu.cpu_model + ")");
  }
}

void matmul(Context& ctx, const std::string& dtype) {
  const auto m = ctx.int_param("m");
  const auto n = ctx.int_param("n");
  const auto k = ctx.int_param("k");
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  const int threads = params::threads_from(ctx);
  if (m < 1 || n < 1 || k < 1 || k > (1 << 20)) return ctx.fail("m, n, k must be positive (k at most 2^20)");
  omp_set_num_threads(threads);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const dt in_type = dtype == "bf16" ? dt::bf16 : dt::f32;
  const dnnl::memory::desc a_md({m, k}, in_type, tag::ab);
  const dnnl::memory::desc b_md({k, n}, in_type, tag::ab);
  const dnnl::memory::desc c_md({m, n}, dt::f32, tag::ab);
  dnnl::matmul::primitive_desc pd;
  try {
#if DNNL_VERSION_MAJOR >= 3
    pd = dnnl::matmul::primitive_desc(engine, a_md, b_md, c_md);  // oneDNN 3 (Ubuntu 24.04, the GPU image)
#else
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, c_md), engine);  // oneDNN 2 (Debian 12)
#endif
  } catch (const dnnl::error& e) {
    return ctx.skip("oneDNN has no " + dtype + " matmul for this CPU (" + std::string(e.what()) + ")");
  }
  dnnl::memory a = input(engine, stream, a_md, m, k, 1);
  dnnl::memory b = input(engine, stream, b_md, k, n, 2);
  dnnl::memory c(c_md, engine);
  dnnl::matmul prim(pd);
  const std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}};
  // The warm-ups cover the first touch of C, JIT-generated kernels and the thread pool.
  const RepetitionSeries seconds = measure(ctx, options.named("matmul"), [&] {
    prim.execute(stream, args);
    stream.wait();
  });
  if (auto wrong = check_entries(static_cast<const float*>(c.get_data_handle()), m, n, k); !wrong.empty()) {
    return ctx.fail(wrong);
  }
  const double median = seconds.median();
  const double gflops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) / median / 1e9;
  const std::string isa = dispatched_isa();
  ctx.report("gflops", gflops, "GFLOP/s", perfzero::Direction::higher_is_better);
  ctx.report("milliseconds", median * 1e3, "ms", perfzero::Direction::lower_is_better);
  ctx.set_extra("threads", std::int64_t{threads});
  ctx.set_extra("isa", isa);
  report_percent_of_peak(ctx, dtype, gflops, threads);
  if (isa.find("amx") != std::string::npos) {
    ctx.set_extra("peak_note", std::string("oneDNN ran on AMX tiles, faster than the vector kernels the peak measures: "
                                           "percent_of_peak may pass 100; percent_of_vendor_peak counts AMX"));
  }
  ctx.set_framework(framework_info());
}

std::vector<ParamSpec> params() {
  std::vector<ParamSpec> specs{{"m", ParamType::integer, std::int64_t{4096}, "rows of A and C"},
                               {"n", ParamType::integer, std::int64_t{4096}, "columns of B and C"},
                               {"k", ParamType::integer, std::int64_t{4096}, "columns of A, rows of B"},
                               params::threads()};
  for (auto& spec : params::measure_specs(kMeasure)) specs.push_back(std::move(spec));
  return specs;
}

const Registration kMatmul[] = {
    Registration{MethodInfo{"onednn", "Matmul", "benchmark_matmul_fp32",
                            "oneDNN fp32 matmul C = A x B: GFLOP/s and % of the CPU's measured peak", params(),
                            [](Context& c) { matmul(c, "f32"); }}},
    Registration{MethodInfo{"onednn", "Matmul", "benchmark_matmul_bf16",
                            "oneDNN bf16 matmul (fp32 result); skipped where oneDNN has no bf16 kernel", params(),
                            [](Context& c) { matmul(c, "bf16"); }}},
};

}  // namespace

}  // namespace perfzero::onednn
