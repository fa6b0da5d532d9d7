#include "cuda/gpu_timing.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "cuda/cuda_check.hpp"
#include "nvml/nvml_library.hpp"

namespace perfzero::cuda {

// The SM clock NVML saw while the timed work ran, when NVML and this GPU can be matched.
struct GpuTimer::Clocks {
  std::unique_ptr<nvml::Library> nvml;
  std::optional<unsigned> index;
  std::string unavailable;
  std::optional<double> min;
  std::optional<double> max;

  explicit Clocks(int device) {
    nvml = nvml::Library::open(unavailable);
    if (!nvml) return;
    std::array<char, 32> bus{};
    if (cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), device) == cudaSuccess) {
      index = nvml->index_of_pci_bus(bus.data());
    }
    if (!index) unavailable = "NVML does not know this GPU's PCI bus id";
  }
  void read() {
    if (!index) return;
    std::vector<std::string> ignored;
    const auto mhz = nvml->read(*index, ignored).sm_clock_mhz;
    if (!mhz) return;
    min = min ? std::min(*min, *mhz) : *mhz;
    max = max ? std::max(*max, *mhz) : *mhz;
  }
};

GpuTimer::GpuTimer(int device, bool flush_l2) : device_(device), flush_l2_(flush_l2) {
  PERFZERO_CUDA_CALL(cudaSetDevice(device));
  PERFZERO_CUDA_CALL(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  PERFZERO_CUDA_CALL(cudaEventCreate(&start_));
  PERFZERO_CUDA_CALL(cudaEventCreate(&stop_));
  if (flush_l2_) {
    int l2 = 0;
    PERFZERO_CUDA_CALL(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    flush_bytes_ = 2 * static_cast<std::size_t>(std::max(l2, 1 << 20));
    PERFZERO_CUDA_CALL(cudaMalloc(&flush_buffer_, flush_bytes_));
  }
  clocks_ = std::make_unique<Clocks>(device);
}

GpuTimer::~GpuTimer() {
  // Teardown errors are not worth an exception from a destructor; the method's result stands.
  if (flush_buffer_ != nullptr) cudaFree(flush_buffer_);
  if (start_ != nullptr) cudaEventDestroy(start_);
  if (stop_ != nullptr) cudaEventDestroy(stop_);
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

RepetitionSeries GpuTimer::measure(Context& ctx, const MeasureOptions& options,
                                   const std::function<void(cudaStream_t)>& work) {
  // The work may have made another device current (the all-GPU methods use several).
  PERFZERO_CUDA_CALL(cudaSetDevice(device_));
  auto setup = [&] {
    if (!flush_l2_) return;
    PERFZERO_CUDA_CALL(cudaMemsetAsync(flush_buffer_, ++flushes_ & 0xff, flush_bytes_, stream_));
  };
  auto body = [&] {
    PERFZERO_CUDA_CALL(cudaEventRecord(start_, stream_));
    work(stream_);
    PERFZERO_CUDA_CALL(cudaEventRecord(stop_, stream_));
    clocks_->read();
    PERFZERO_CUDA_CALL(cudaEventSynchronize(stop_));
    float ms = 0;
    PERFZERO_CUDA_CALL(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) / 1e3;
  };
  return measure_timed(ctx, options, setup, body);
}

void GpuTimer::record_clocks(Context& ctx) const {
  ctx.set_extra("flush_l2", flush_l2_);
  if (clocks_->min && clocks_->max) {
    ctx.set_extra("sm_clock_mhz_min", *clocks_->min);
    ctx.set_extra("sm_clock_mhz_max", *clocks_->max);
  } else {
    ctx.set_extra("sm_clock_source",
                  "not read: " + (clocks_->unavailable.empty() ? "no reading" : clocks_->unavailable));
  }
}

}  // namespace perfzero::cuda
