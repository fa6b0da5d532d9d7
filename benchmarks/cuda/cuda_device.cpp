#include "cuda/cuda_device.hpp"

#include <fmt/format.h>

#include "cuda/cuda_check.hpp"

namespace perfzero::cuda {

void throw_call_error(const char* file, int line, const char* call, const std::string& what) {
  throw CudaError(fmt::format("{}:{}: {} failed: {}", file, line, call, what));
}

const char* cublas_status_name(cublasStatus_t status) { return cublasGetStatusString(status); }

std::string no_device_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    return fmt::format("no CUDA device: cudaGetDeviceCount says {} ({})", cudaGetErrorString(status),
                       cudaGetErrorName(status));
  }
  if (count == 0) return "no CUDA device: cudaGetDeviceCount found none";
  return "";
}

int device_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

bool skip_without_device(Context& ctx, int device) {
  if (auto reason = no_device_reason(); !reason.empty()) {
    ctx.skip(reason);
    return true;
  }
  if (device < 0 || device >= device_count()) {
    ctx.skip(fmt::format("no CUDA device: device {} asked for, {} present", device, device_count()));
    return true;
  }
  return false;
}

DeviceFacts describe_device(int device) {
  DeviceFacts f;
  f.index = device;
  cudaDeviceProp prop{};
  PERFZERO_CUDA_CALL(cudaGetDeviceProperties(&prop, device));
  f.name = prop.name;
  f.cc_major = prop.major;
  f.cc_minor = prop.minor;
  f.sm_count = prop.multiProcessorCount;
  f.memory_bytes = prop.totalGlobalMem;
  f.l2_bytes = prop.l2CacheSize;
  int khz = 0;
  PERFZERO_CUDA_CALL(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  f.max_sm_clock_mhz = khz / 1000.0;
  return f;
}

void record_environment(Context& ctx, const DeviceFacts& device) {
  int runtime = 0;
  int driver = 0;
  PERFZERO_CUDA_CALL(cudaRuntimeGetVersion(&runtime));
  PERFZERO_CUDA_CALL(cudaDriverGetVersion(&driver));
  auto version = [](int v) { return fmt::format("{}.{}", v / 1000, v % 1000 / 10); };
  ctx.set_framework({"cuda", version(runtime), "driver " + version(driver)});
  ctx.set_extra("cuda_runtime_version", version(runtime));
  ctx.set_extra("cuda_driver_version", version(driver));
  int cublas = 0;
  if (cublasGetProperty(MAJOR_VERSION, &cublas) == CUBLAS_STATUS_SUCCESS) {
    int minor = 0;
    int patch = 0;
    cublasGetProperty(MINOR_VERSION, &minor);
    cublasGetProperty(PATCH_LEVEL, &patch);
    ctx.set_extra("cublas_version", fmt::format("{}.{}.{}", cublas, minor, patch));
  }
  const std::size_t cudnn = cudnnGetVersion();
  ctx.set_extra("cudnn_version", fmt::format("{}.{}.{}", cudnn / 10000, cudnn % 10000 / 100, cudnn % 100));
  ctx.set_extra("gpu", device.name);
  ctx.set_extra("gpu_index", std::int64_t{device.index});
  ctx.set_extra("compute_capability", fmt::format("{}.{}", device.cc_major, device.cc_minor));
  ctx.set_extra("sm_count", std::int64_t{device.sm_count});
}

std::vector<ParamSpec> common_params() {
  return {
      {"device", ParamType::integer, std::int64_t{0}, "CUDA device index"},
      {"flush_l2", ParamType::boolean, false, "overwrite the L2 cache before every timed repetition (cold runs)"},
  };
}

MethodInfo gpu_method(std::string class_name, std::string name, std::string description, std::vector<ParamSpec> params,
                      MethodFunction fn) {
  MethodInfo info{"cuda", std::move(class_name), std::move(name), std::move(description), std::move(params), fn};
  info.needs = {"gpu"};
  return info;
}

}  // namespace perfzero::cuda
