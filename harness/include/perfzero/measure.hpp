#pragma once
// One measurement loop for in-process methods (docs/writing_benchmarks.md, "Timing with
// perfzero::measure"): warm-ups, then timed repetitions until the minimums are met (and the noise
// target, when one is set), a time cap or a repetition cap. Every sample is kept and recorded in the
// context, so the result file carries it.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "perfzero/context.hpp"
#include "perfzero/repetition_series.hpp"

namespace perfzero {

struct MeasureOptions {
  std::string name = "time";  // the series' name in the result file; unique within a method
  std::int64_t warmups = 1;   // untimed repetitions first (JIT, first touch, thread pools)
  std::int64_t min_repetitions = 5;
  double min_time = 0.0;               // seconds: the timed repetitions together run at least this long
  std::optional<double> noise_target;  // e.g. 0.01: go on until the mean is known to 1 % (95 % confidence)
  double max_time = 300.0;             // seconds of wall time, warm-ups and setup included
  std::int64_t max_repetitions = 1000;

  MeasureOptions named(std::string series_name) const {
    MeasureOptions copy = *this;
    copy.name = std::move(series_name);
    return copy;
  }
};

// Times body() per repetition. At least one timed repetition always runs. An exception from body
// propagates (nothing is recorded). Throws std::invalid_argument for inconsistent options.
RepetitionSeries measure(Context& ctx, const MeasureOptions& options, const std::function<void()>& body);

// The same, with setup() run untimed before every repetition (warm-ups included): fresh inputs,
// caches flushed, buffers reset.
RepetitionSeries measure(Context& ctx, const MeasureOptions& options, const std::function<void()>& setup,
                         const std::function<void()>& body);

// For work timed by its own clock (CUDA events on the GPU's timeline): body() runs one repetition
// and returns its duration in seconds. Warm-ups, stopping rules (the caps on wall time included) and
// recording are those of measure().
RepetitionSeries measure_timed(Context& ctx, const MeasureOptions& options, const std::function<void()>& setup,
                               const std::function<double()>& body);

}  // namespace perfzero
