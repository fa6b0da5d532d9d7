// cuda.Gemm.benchmark_gemm: C = A^T B through cuBLASLt in fp32, tf32, fp16, bf16 and fp8 (e4m3 in,
// bf16 out), fp32 accumulation; TFLOP/s and % of the GPU's peak for the type (cuda/gemm_peak.hpp).
// Inputs are multiples of 1/8 in [-1, 1], exact in every type, so each output entry is exact before
// its rounding to the output type: the check on a sample of entries is tight.
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/gemm_peak.hpp"
#include "cuda/gpu_timing.hpp"

namespace perfzero::cuda {

namespace {

const params::MeasureDefaults kMeasure{.repetitions = 10, .warmups = 2};

struct TypeInfo {
  cudaDataType_t in;
  cudaDataType_t out;
  cublasComputeType_t compute;
  std::size_t in_bytes;
  std::size_t out_bytes;
  double out_epsilon;  // relative rounding of an output entry
};

TypeInfo info_of(GemmType t) {
  switch (t) {
    case GemmType::fp32:
      return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 4, 1e-6};
    case GemmType::tf32:
      return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4, 1e-6};
    case GemmType::fp16:
      return {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 2, 1.0 / 1024};
    case GemmType::bf16:
      return {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2, 1.0 / 128};
    case GemmType::fp8:
      return {CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 1, 2, 1.0 / 128};
  }
  return {};
}

// Entry `index` of an input: a multiple of 1/8 in [-1, 1] from a hash of the index.
float input_value(std::uint64_t index, std::uint64_t salt) {
  std::uint64_t h = (index + 1) * 0x9E3779B97F4A7C15ULL ^ salt;
  h ^= h >> 29;
  return static_cast<float>(static_cast<int>(h % 17) - 8) / 8.0F;
}

void store(GemmType t, float v, std::uint8_t* at) {
  switch (t) {
    case GemmType::fp32:
    case GemmType::tf32:
      std::memcpy(at, &v, 4);
      break;
    case GemmType::fp16: {
      const __half h = __float2half(v);
      std::memcpy(at, &h, 2);
      break;
    }
    case GemmType::bf16: {
      const __nv_bfloat16 h = __float2bfloat16(v);
      std::memcpy(at, &h, 2);
      break;
    }
    case GemmType::fp8: {
      const __nv_fp8_e4m3 h(v);
      std::memcpy(at, &h, 1);
      break;
    }
  }
}

float load_output(GemmType t, const std::uint8_t* at) {
  switch (t) {
    case GemmType::fp32:
    case GemmType::tf32: {
      float v = 0;
      std::memcpy(&v, at, 4);
      return v;
    }
    case GemmType::fp16: {
      __half h;
      std::memcpy(&h, at, 2);
      return __half2float(h);
    }
    case GemmType::bf16:
    case GemmType::fp8: {
      __nv_bfloat16 h;
      std::memcpy(&h, at, 2);
      return __bfloat162float(h);
    }
  }
  return 0;
}

struct Shape {
  std::int64_t m, n, k;
};

// Fills a K x cols column-major input (row k of column c at c*K + k) on the device.
DeviceBuffer<std::uint8_t> make_input(GemmType t, std::int64_t k, std::int64_t cols, std::uint64_t salt) {
  const TypeInfo ti = info_of(t);
  const auto count = static_cast<std::size_t>(k * cols);
  std::vector<std::uint8_t> host(count * ti.in_bytes);
  for (std::size_t i = 0; i < count; ++i) store(t, input_value(i, salt), host.data() + i * ti.in_bytes);
  DeviceBuffer<std::uint8_t> device(host.size());
  PERFZERO_CUDA_CALL(cudaMemcpy(device.get(), host.data(), host.size(), cudaMemcpyHostToDevice));
  return device;
}

// cuBLASLt objects for one problem, released in any case.
struct LtPlan {
  cublasLtHandle_t handle = nullptr;
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  cublasLtMatmulHeuristicResult_t algo{};
  std::unique_ptr<DeviceBuffer<std::uint8_t>> workspace;

  LtPlan(GemmType t, const Shape& s) {
    const TypeInfo ti = info_of(t);
    PERFZERO_CUBLAS_CALL(cublasLtCreate(&handle));
    PERFZERO_CUBLAS_CALL(cublasLtMatmulDescCreate(&op, ti.compute, CUDA_R_32F));
    const cublasOperation_t transpose = CUBLAS_OP_T;
    const cublasOperation_t keep = CUBLAS_OP_N;
    PERFZERO_CUBLAS_CALL(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof transpose));
    PERFZERO_CUBLAS_CALL(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &keep, sizeof keep));
    // A is stored K x M (A^T is used: the "TN" layout fp8 requires), B K x N, C M x N.
    PERFZERO_CUBLAS_CALL(cublasLtMatrixLayoutCreate(&a, ti.in, s.k, s.m, s.k));
    PERFZERO_CUBLAS_CALL(cublasLtMatrixLayoutCreate(&b, ti.in, s.k, s.n, s.k));
    PERFZERO_CUBLAS_CALL(cublasLtMatrixLayoutCreate(&c, ti.out, s.m, s.n, s.m));
    const std::size_t workspace_bytes = 64u << 20;
    workspace = std::make_unique<DeviceBuffer<std::uint8_t>>(workspace_bytes);
    PERFZERO_CUBLAS_CALL(cublasLtMatmulPreferenceCreate(&pref));
    PERFZERO_CUBLAS_CALL(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                              &workspace_bytes, sizeof workspace_bytes));
    int found = 0;
    PERFZERO_CUBLAS_CALL(cublasLtMatmulAlgoGetHeuristic(handle, op, a, b, c, c, pref, 1, &algo, &found));
    if (found == 0) throw CudaError("cuBLASLt has no algorithm for this type and shape on this GPU");
  }
  ~LtPlan() {
    if (pref != nullptr) cublasLtMatmulPreferenceDestroy(pref);
    if (c != nullptr) cublasLtMatrixLayoutDestroy(c);
    if (b != nullptr) cublasLtMatrixLayoutDestroy(b);
    if (a != nullptr) cublasLtMatrixLayoutDestroy(a);
    if (op != nullptr) cublasLtMatmulDescDestroy(op);
    if (handle != nullptr) cublasLtDestroy(handle);
  }
  LtPlan(const LtPlan&) = delete;
  LtPlan& operator=(const LtPlan&) = delete;

  void run(const void* A, const void* B, void* C, cudaStream_t stream) const {
    const float alpha = 1.0F;
    const float beta = 0.0F;
    PERFZERO_CUBLAS_CALL(cublasLtMatmul(handle, op, &alpha, A, a, B, b, &beta, C, c, C, c, &algo.algo, workspace->get(),
                                        workspace->size(), stream));
  }
};

// The largest error over 256 spread entries, in units of the entry's allowed rounding; > 1 fails.
double worst_error_ratio(GemmType t, const Shape& s, const std::uint8_t* c_device) {
  const TypeInfo ti = info_of(t);
  double worst = 0;
  for (std::int64_t e = 0; e < 256; ++e) {
    const std::int64_t i = e == 255 ? s.m - 1 : (e * 7919) % s.m;
    const std::int64_t j = e == 255 ? s.n - 1 : (e * 104729) % s.n;
    double exact = 0;
    for (std::int64_t p = 0; p < s.k; ++p) {
      exact += static_cast<double>(input_value(static_cast<std::uint64_t>(i * s.k + p), 1)) *
               input_value(static_cast<std::uint64_t>(j * s.k + p), 2);
    }
    std::uint8_t raw[4] = {};
    PERFZERO_CUDA_CALL(cudaMemcpy(raw, c_device + (j * s.m + i) * static_cast<std::int64_t>(ti.out_bytes), ti.out_bytes,
                                  cudaMemcpyDeviceToHost));
    const double got = load_output(t, raw);
    const double allowed = ti.out_epsilon * std::fabs(exact) + 1e-6;
    worst = std::max(worst, std::fabs(got - exact) / allowed);
  }
  return worst;
}

void gemm(Context& ctx) {
  const int device = static_cast<int>(ctx.int_param("device"));
  if (skip_without_device(ctx, device)) return;
  const auto type = gemm_type_from(ctx.string_param("type"));
  if (!type) return ctx.fail("type must be fp32, tf32, fp16, bf16 or fp8, not '" + ctx.string_param("type") + "'");
  const Shape s{ctx.int_param("m"), ctx.int_param("n"), ctx.int_param("k")};
  if (s.m < 1 || s.n < 1 || s.k < 1 || s.k > (1 << 20)) return ctx.fail("m, n and k must be in 1..2^20");
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  const DeviceFacts facts = describe_device(device);
  record_environment(ctx, facts);
  if (!gemm_type_supported(facts.cc_major, facts.cc_minor, *type)) {
    return ctx.skip(std::string(to_string(*type)) + " matrix multiply needs a newer GPU than compute capability " +
                    std::to_string(facts.cc_major) + "." + std::to_string(facts.cc_minor));
  }
  GpuTimer timer(device, ctx.bool_param("flush_l2"));
  const DeviceBuffer<std::uint8_t> a = make_input(*type, s.k, s.m, 1);
  const DeviceBuffer<std::uint8_t> b = make_input(*type, s.k, s.n, 2);
  DeviceBuffer<std::uint8_t> c(static_cast<std::size_t>(s.m * s.n) * info_of(*type).out_bytes);
  const LtPlan plan(*type, s);
  const RepetitionSeries seconds =
      timer.measure(ctx, options.named("gemm"), [&](cudaStream_t st) { plan.run(a.get(), b.get(), c.get(), st); });
  const double worst = worst_error_ratio(*type, s, c.get());
  ctx.set_extra("worst_error_over_allowed", worst);
  if (!(worst <= 1.0))
    return ctx.fail("an output entry is off by " + std::to_string(worst) + " times the rounding allowed");
  const double tflops =
      2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k) / seconds.median() / 1e12;
  ctx.report("tflops", tflops, "TFLOP/s", Direction::higher_is_better);
  ctx.report("gemm_time", seconds.median() * 1e3, "ms", Direction::lower_is_better);
  const auto peak = gemm_peak(facts.cc_major, facts.cc_minor, facts.sm_count, facts.max_sm_clock_mhz, *type);
  if (peak) {
    ctx.report("percent_of_peak", 100.0 * tflops / peak->tflops, "%", Direction::higher_is_better);
    ctx.set_extra("peak_tflops", peak->tflops);
    ctx.set_extra("peak_how", peak->how);
  } else {
    ctx.set_extra("peak_how", "compute capability not in the peak table");
  }
  ctx.set_extra("type", std::string(to_string(*type)));
  ctx.set_extra("m", s.m);
  ctx.set_extra("n", s.n);
  ctx.set_extra("k", s.k);
  timer.record_clocks(ctx);
}

std::vector<ParamSpec> gemm_params() {
  std::vector<ParamSpec> specs{
      {"type", ParamType::string, std::string("bf16"), "fp32, tf32, fp16, bf16 or fp8 (e4m3 in, bf16 out; sm_89+)"},
      {"m", ParamType::integer, std::int64_t{8192}, "rows of C"},
      {"n", ParamType::integer, std::int64_t{8192}, "columns of C"},
      {"k", ParamType::integer, std::int64_t{8192}, "the inner dimension"},
  };
  for (auto& spec : common_params()) specs.push_back(std::move(spec));
  for (auto& spec : params::measure_specs(kMeasure)) specs.push_back(std::move(spec));
  return specs;
}

const Registration kGemm{gpu_method("Gemm", "benchmark_gemm",
                                    "cuBLASLt C = A^T B, fp32 accumulation; TFLOP/s and % of the type's peak",
                                    gemm_params(), gemm)};

}  // namespace

}  // namespace perfzero::cuda
