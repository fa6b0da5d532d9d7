// opencl.Bandwidth.*: how fast bytes move on the device (clEnqueueCopyBuffer) and between host and
// device (blocking writes and reads from pageable host memory, as most programs transfer). Each
// copy is checked against the pattern it carries.
#include <cstdint>
#include <string>
#include <vector>

#include "opencl/device_runner.hpp"

namespace perfzero::opencl {

namespace {

const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed copies after the warm-ups; the median counts",
    .repetitions = 10,
    .warmups = 2,
    .min_time = 0.2};

enum class Direction { device_to_device, host_to_device, device_to_host };

std::vector<std::uint32_t> pattern(std::size_t words, std::uint32_t salt) {
  std::vector<std::uint32_t> v(words);
  for (std::size_t i = 0; i < words; ++i) v[i] = static_cast<std::uint32_t>(i) * 2654435761U ^ salt;
  return v;
}

std::string first_difference(const std::vector<std::uint32_t>& got, const std::vector<std::uint32_t>& want) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      return "word " + std::to_string(i) + " is " + std::to_string(got[i]) + ", expected " + std::to_string(want[i]);
    }
  }
  return "";
}

void copy(Context& ctx, Session& s, Direction direction) {
  const std::int64_t mib = ctx.int_param("mib");
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  if (mib < 1 || mib > 65536) return ctx.fail("mib must be between 1 and 65536");
  const auto bytes = static_cast<std::size_t>(mib) << 20;
  if (static_cast<std::int64_t>(bytes) > s.device().max_allocation_bytes ||
      2 * static_cast<std::int64_t>(bytes) > s.device().global_memory_bytes) {
    return ctx.skip(std::to_string(mib) + " MiB buffers exceed the device's allocation limit or memory");
  }
  const std::vector<std::uint32_t> source = pattern(bytes / 4, 0x5EEDU);
  std::vector<std::uint32_t> landing(source.size(), 0);
  const Buffer from = s.buffer(bytes);
  const Buffer to = s.buffer(bytes);
  s.write(direction == Direction::device_to_host ? to : from, source.data(), bytes);
  RepetitionSeries seconds;
  if (direction == Direction::device_to_device) {
    seconds = measure(ctx, options.named("copy"), [&] {
      PERFZERO_CL_CALL(clEnqueueCopyBuffer(s.queue(), from.get(), to.get(), 0, 0, bytes, 0, nullptr, nullptr));
      s.finish();
    });
    s.read(to, landing.data(), bytes);
  } else if (direction == Direction::host_to_device) {
    seconds = measure(ctx, options.named("host_to_device"), [&] { s.write(to, source.data(), bytes); });
    s.read(to, landing.data(), bytes);
  } else {
    seconds = measure(ctx, options.named("device_to_host"), [&] { s.read(to, landing.data(), bytes); });
  }
  if (auto wrong = first_difference(landing, source); !wrong.empty()) return ctx.fail("the copy is wrong: " + wrong);
  // A device copy reads and writes every byte; a transfer moves each byte once.
  const double moved = (direction == Direction::device_to_device ? 2.0 : 1.0) * static_cast<double>(bytes);
  ctx.report("gbps", moved / seconds.median() / 1e9, "GB/s", perfzero::Direction::higher_is_better);
  ctx.report("milliseconds", seconds.median() * 1e3, "ms", perfzero::Direction::lower_is_better);
  ctx.set_extra("bytes", static_cast<std::int64_t>(bytes));
}

std::vector<ParamSpec> copy_params() {
  std::vector<ParamSpec> own{{"mib", ParamType::integer, std::int64_t{64}, "buffer size in MiB"}};
  for (auto& spec : params::measure_specs(kMeasure)) own.push_back(std::move(spec));
  return with_device_params(std::move(own));
}

MethodInfo method(std::string name, std::string description, MethodFunction fn) {
  return {"opencl", "Bandwidth", std::move(name), std::move(description), copy_params(), fn};
}

const Registration kMethods[] = {
    Registration{method("benchmark_copy", "device-to-device copy (clEnqueueCopyBuffer); GB/s counts read + write",
                        [](Context& c) {
                          run_on_selected_devices(
                              c, [](Context& ctx, Session& s) { copy(ctx, s, Direction::device_to_device); });
                        })},
    Registration{method("benchmark_host_to_device", "blocking write from pageable host memory to the device",
                        [](Context& c) {
                          run_on_selected_devices(
                              c, [](Context& ctx, Session& s) { copy(ctx, s, Direction::host_to_device); });
                        })},
    Registration{method("benchmark_device_to_host", "blocking read from the device into pageable host memory",
                        [](Context& c) {
                          run_on_selected_devices(
                              c, [](Context& ctx, Session& s) { copy(ctx, s, Direction::device_to_host); });
                        })},
};

}  // namespace

}  // namespace perfzero::opencl
