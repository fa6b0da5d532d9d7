// cuda.VecAdd.benchmark_vecadd: c = a + b over n floats, the brief's "hello world" kernel (50,000
// floats) and large sizes; bandwidth counts two reads and one write per element.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/gpu_timing.hpp"

namespace perfzero::cuda {

namespace {

const params::MeasureDefaults kMeasure{.repetitions = 20, .warmups = 3};

__global__ void vecadd_kernel(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    c[i] = a[i] + b[i];
  }
}

// Small whole numbers: every sum is exact in float, so the check is exact equality.
float a_value(std::int64_t i) { return static_cast<float>(i % 1024); }
float b_value(std::int64_t i) { return static_cast<float>((i * 7) % 1024); }

void vecadd(Context& ctx) {
  const int device = static_cast<int>(ctx.int_param("device"));
  if (skip_without_device(ctx, device)) return;
  const std::int64_t n = ctx.int_param("n");
  if (n < 1) return ctx.fail("n must be at least 1, not " + std::to_string(n));
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  const DeviceFacts facts = describe_device(device);
  record_environment(ctx, facts);
  GpuTimer timer(device, ctx.bool_param("flush_l2"));
  const auto count = static_cast<std::size_t>(n);
  std::vector<float> host(count);
  DeviceBuffer<float> a(count);
  DeviceBuffer<float> b(count);
  DeviceBuffer<float> c(count);
  for (std::size_t i = 0; i < count; ++i) host[i] = a_value(static_cast<std::int64_t>(i));
  PERFZERO_CUDA_CALL(cudaMemcpy(a.get(), host.data(), a.bytes(), cudaMemcpyHostToDevice));
  for (std::size_t i = 0; i < count; ++i) host[i] = b_value(static_cast<std::int64_t>(i));
  PERFZERO_CUDA_CALL(cudaMemcpy(b.get(), host.data(), b.bytes(), cudaMemcpyHostToDevice));
  PERFZERO_CUDA_CALL(cudaMemset(c.get(), 0xff, c.bytes()));  // NaNs: a skipped element cannot pass

  const int threads = 256;
  const auto blocks = static_cast<int>(std::min<std::int64_t>((n + threads - 1) / threads, 32L * facts.sm_count * 8));
  const RepetitionSeries seconds = timer.measure(ctx, options.named("kernel"), [&](cudaStream_t s) {
    vecadd_kernel<<<blocks, threads, 0, s>>>(a.get(), b.get(), c.get(), n);
    PERFZERO_CUDA_CALL(cudaGetLastError());
  });
  PERFZERO_CUDA_CALL(cudaMemcpy(host.data(), c.get(), c.bytes(), cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < count; ++i) {
    const auto index = static_cast<std::int64_t>(i);
    if (host[i] != a_value(index) + b_value(index)) {
      return ctx.fail("c[" + std::to_string(i) + "] = " + std::to_string(host[i]) + ", expected " +
                      std::to_string(a_value(index) + b_value(index)));
    }
  }
  const double bytes = 3.0 * static_cast<double>(n) * sizeof(float);
  ctx.report("bandwidth", bytes / seconds.median() / 1e9, "GB/s", Direction::higher_is_better);
  ctx.report("kernel_time", seconds.median() * 1e6, "us", Direction::lower_is_better);
  ctx.set_extra("n", n);
  timer.record_clocks(ctx);
}

std::vector<ParamSpec> vecadd_params() {
  std::vector<ParamSpec> specs{
      {"n", ParamType::integer, std::int64_t{50000}, "floats per vector (the brief's 50,000; 268435456 for 1 GiB)"}};
  for (auto& spec : common_params()) specs.push_back(std::move(spec));
  for (auto& spec : params::measure_specs(kMeasure)) specs.push_back(std::move(spec));
  return specs;
}

const Registration kVecAdd{gpu_method("VecAdd", "benchmark_vecadd",
                                      "c = a + b over n floats on one GPU; GB/s of two reads and one write",
                                      vecadd_params(), vecadd)};

}  // namespace

}  // namespace perfzero::cuda
