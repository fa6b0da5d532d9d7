#include "perfzero/measure.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "noise.hpp"

namespace perfzero {

namespace {

using Clock = std::chrono::steady_clock;

void check_options(const MeasureOptions& o) {
  auto bad = [&](std::string_view what) {
    return std::invalid_argument(fmt::format("measure '{}': {}", o.name, what));
  };
  if (o.name.empty()) throw bad("the series needs a name");
  if (o.warmups < 0) throw bad(fmt::format("warmups must be at least 0, not {}", o.warmups));
  if (o.min_repetitions < 1) throw bad(fmt::format("min_repetitions must be at least 1, not {}", o.min_repetitions));
  if (o.max_repetitions < o.min_repetitions) {
    throw bad(fmt::format("max_repetitions ({}) is below min_repetitions ({})", o.max_repetitions, o.min_repetitions));
  }
  if (!(o.min_time >= 0) || !std::isfinite(o.min_time)) throw bad(fmt::format("min_time {} is not >= 0", o.min_time));
  if (!(o.max_time > 0)) throw bad(fmt::format("max_time {} is not > 0", o.max_time));
  if (o.noise_target && !(*o.noise_target > 0)) {
    throw bad(fmt::format("noise_target {} is not > 0", *o.noise_target));
  }
}

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// Running count, sum and mean/variance (Welford), so the stop test does not rescan every sample.
struct Running {
  std::int64_t count = 0;
  double sum = 0;
  double mean = 0;
  double m2 = 0;

  void add(double x) {
    ++count;
    sum += x;
    const double delta = x - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (x - mean);
  }
  double noise() const {
    const double stddev = count > 1 ? std::sqrt(m2 / static_cast<double>(count - 1)) : 0.0;
    return detail::relative_noise(static_cast<std::size_t>(count), mean, stddev);
  }
};

// Why to stop after the latest repetition, or nothing to go on. The caps come first: they bound the
// method's run time whatever the minimums ask for.
std::optional<StopReason> stop_reason(const MeasureOptions& o, const Running& r, double wall_seconds) {
  if (r.count >= o.max_repetitions) return StopReason::max_repetitions;
  if (wall_seconds >= o.max_time) return StopReason::time_cap;
  if (r.count < o.min_repetitions || r.sum < o.min_time) return std::nullopt;
  if (!o.noise_target) return StopReason::min_repetitions_and_time;
  if (r.noise() <= *o.noise_target) return StopReason::noise_target;
  return std::nullopt;
}

}  // namespace

RepetitionSeries measure(Context& ctx, const MeasureOptions& options, const std::function<void()>& body) {
  return measure(
      ctx, options, [] {}, body);
}

RepetitionSeries measure(Context& ctx, const MeasureOptions& options, const std::function<void()>& setup,
                         const std::function<void()>& body) {
  return measure_timed(ctx, options, setup, [&] {
    const auto start = Clock::now();
    body();
    return seconds_between(start, Clock::now());
  });
}

RepetitionSeries measure_timed(Context& ctx, const MeasureOptions& options, const std::function<void()>& setup,
                               const std::function<double()>& body) {
  check_options(options);
  RepetitionSeries series;
  series.name = options.name;
  series.warmups = options.warmups;
  const auto started = Clock::now();
  for (std::int64_t w = 0; w < options.warmups; ++w) {
    setup();
    body();
  }
  Running running;
  while (true) {
    setup();
    const double seconds = body();
    series.values.push_back(seconds);
    running.add(seconds);
    if (auto reason = stop_reason(options, running, seconds_between(started, Clock::now()))) {
      series.stopped_by = *reason;
      break;
    }
  }
  ctx.record_repetitions(series);
  return series;
}

}  // namespace perfzero
