#pragma once
// GPU work timed with CUDA events through perfzero::measure_timed: warm-ups and stopping rules are
// the shared loop's; the time of a repetition is the GPU's, between two events on the stream.
#include <functional>
#include <memory>

#include <cuda_runtime.h>

#include "perfzero/benchmark.hpp"

namespace perfzero::cuda {

class GpuTimer {
 public:
  // `flush_l2`: before every repetition (warm-ups too), write a buffer twice the L2's size, so the
  // work starts with a cold cache. The SM clock is read through NVML during each timed region
  // (right after the work is enqueued, before waiting for it) and recorded by record_clocks().
  GpuTimer(int device, bool flush_l2);
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  cudaStream_t stream() const { return stream_; }
  RepetitionSeries measure(Context& ctx, const MeasureOptions& options, const std::function<void(cudaStream_t)>& work);
  // extras sm_clock_mhz_min/max (or sm_clock_source with why none was read) and flush_l2.
  void record_clocks(Context& ctx) const;

 private:
  struct Clocks;
  int device_ = 0;
  bool flush_l2_ = false;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  void* flush_buffer_ = nullptr;
  std::size_t flush_bytes_ = 0;
  int flushes_ = 0;
  std::unique_ptr<Clocks> clocks_;
};

}  // namespace perfzero::cuda
