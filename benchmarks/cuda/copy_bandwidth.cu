// cuda.Copy.*: copy bandwidth. Device to device is the reference for "% of peak bandwidth" of the
// other methods (counted as bytes read plus bytes written, as vecadd counts its traffic); host to
// device and device to host run from pinned or pageable host memory (counted once: the bus).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/gpu_timing.hpp"

namespace perfzero::cuda {

namespace {

const params::MeasureDefaults kMeasure{.repetitions = 10, .warmups = 2};

enum class Direction { device_to_device, host_to_device, device_to_host };

// A word per 8 bytes that names its own position: a copy that moved or dropped data cannot pass.
std::uint64_t pattern(std::size_t i) { return 0x9E3779B97F4A7C15ULL * (i + 1); }

// Checks 4096 evenly spread words and the last one of the copied data (on the device when
// `device_data` is given, else in `host_data`).
bool check_sample(Context& ctx, const std::uint64_t* device_data, const std::uint64_t* host_data, std::size_t words) {
  const std::size_t step = std::max<std::size_t>(1, words / 4096);
  auto word_ok = [&](std::size_t i) {
    std::uint64_t value = 0;
    if (device_data != nullptr) {
      PERFZERO_CUDA_CALL(cudaMemcpy(&value, device_data + i, sizeof value, cudaMemcpyDeviceToHost));
    } else {
      value = host_data[i];
    }
    if (value == pattern(i)) return true;
    ctx.fail("word " + std::to_string(i) + " of the copy is wrong");
    return false;
  };
  for (std::size_t i = 0; i < words; i += step) {
    if (!word_ok(i)) return false;
  }
  return word_ok(words - 1);
}

void copy(Context& ctx, Direction direction) {
  const int device = static_cast<int>(ctx.int_param("device"));
  if (skip_without_device(ctx, device)) return;
  const std::int64_t bytes_param = ctx.int_param("bytes");
  if (bytes_param < 8) return ctx.fail("bytes must be at least 8, not " + std::to_string(bytes_param));
  const bool pinned = direction != Direction::device_to_device && ctx.bool_param("pinned");
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  record_environment(ctx, describe_device(device));
  GpuTimer timer(device, ctx.bool_param("flush_l2"));
  const auto words = static_cast<std::size_t>(bytes_param) / 8;
  const std::size_t bytes = words * 8;

  std::unique_ptr<PinnedBuffer<std::uint64_t>> pinned_host;
  std::vector<std::uint64_t> pageable_host;
  std::uint64_t* host = nullptr;
  if (direction != Direction::device_to_device) {
    if (pinned) {
      pinned_host = std::make_unique<PinnedBuffer<std::uint64_t>>(words);
      host = pinned_host->get();
    } else {
      pageable_host.resize(words);
      host = pageable_host.data();
    }
  }
  DeviceBuffer<std::uint64_t> src(words);
  DeviceBuffer<std::uint64_t> dst(words);
  std::vector<std::uint64_t> source(words);
  for (std::size_t i = 0; i < words; ++i) source[i] = pattern(i);
  if (direction == Direction::host_to_device) {
    std::memcpy(host, source.data(), bytes);
  } else {
    PERFZERO_CUDA_CALL(cudaMemcpy(src.get(), source.data(), bytes, cudaMemcpyHostToDevice));
  }
  if (host != nullptr && direction == Direction::device_to_host) std::memset(host, 0, bytes);

  const RepetitionSeries seconds = timer.measure(ctx, options.named("copy"), [&](cudaStream_t s) {
    switch (direction) {
      case Direction::device_to_device:
        PERFZERO_CUDA_CALL(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, s));
        break;
      case Direction::host_to_device:
        PERFZERO_CUDA_CALL(cudaMemcpyAsync(dst.get(), host, bytes, cudaMemcpyHostToDevice, s));
        break;
      case Direction::device_to_host:
        PERFZERO_CUDA_CALL(cudaMemcpyAsync(host, src.get(), bytes, cudaMemcpyDeviceToHost, s));
        break;
    }
  });
  const bool ok = direction == Direction::device_to_host ? check_sample(ctx, nullptr, host, words)
                                                         : check_sample(ctx, dst.get(), nullptr, words);
  if (!ok) return;
  const double moved =
      direction == Direction::device_to_device ? 2.0 * static_cast<double>(bytes) : static_cast<double>(bytes);
  ctx.report("bandwidth", moved / seconds.median() / 1e9, "GB/s", perfzero::Direction::higher_is_better);
  ctx.report("copy_time", seconds.median() * 1e3, "ms", perfzero::Direction::lower_is_better);
  ctx.set_extra("bytes", static_cast<std::int64_t>(bytes));
  if (direction != Direction::device_to_device) ctx.set_extra("pinned", pinned);
  timer.record_clocks(ctx);
}

std::vector<ParamSpec> copy_params(bool with_pinned) {
  std::vector<ParamSpec> specs{{"bytes", ParamType::integer, std::int64_t{1} << 30, "bytes copied per repetition"}};
  if (with_pinned) {
    specs.push_back({"pinned", ParamType::boolean, true, "host memory page-locked (cudaMallocHost) or pageable"});
  }
  for (auto& spec : common_params()) specs.push_back(std::move(spec));
  for (auto& spec : params::measure_specs(kMeasure)) specs.push_back(std::move(spec));
  return specs;
}

const Registration kCopies[] = {
    Registration{gpu_method("Copy", "benchmark_device_to_device",
                            "cudaMemcpy device to device; GB/s read plus written: the reference peak bandwidth",
                            copy_params(false), [](Context& c) { copy(c, Direction::device_to_device); })},
    Registration{gpu_method("Copy", "benchmark_host_to_device", "cudaMemcpy host to device (pinned or pageable); GB/s",
                            copy_params(true), [](Context& c) { copy(c, Direction::host_to_device); })},
    Registration{gpu_method("Copy", "benchmark_device_to_host", "cudaMemcpy device to host (pinned or pageable); GB/s",
                            copy_params(true), [](Context& c) { copy(c, Direction::device_to_host); })},
};

}  // namespace

}  // namespace perfzero::cuda
