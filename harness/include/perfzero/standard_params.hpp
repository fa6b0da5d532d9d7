#pragma once
// Parameters many methods share, declared once so they mean the same everywhere: `threads`, and the
// options of perfzero::measure() (`repetitions`, `warmups`, `min_time`, `noise_target`, `max_time`,
// `max_repetitions`) with per-method defaults.
#include <cstdint>
#include <string>
#include <vector>

#include "perfzero/context.hpp"
#include "perfzero/measure.hpp"
#include "perfzero/param.hpp"

namespace perfzero::params {

// `threads`: 0 means all the CPUs this process may use (perfzero::allowed_threads()).
ParamSpec threads(std::int64_t default_value = 0);
// The thread count to run: throws std::invalid_argument when `threads` is negative.
int threads_from(const Context& ctx);

struct MeasureDefaults {
  // Methods that call their repetitions something else (the training step's `steps`) rename it.
  std::string repetitions_name = "repetitions";
  std::string repetitions_description = "minimum timed repetitions after the warm-ups";
  std::int64_t repetitions = 5;
  std::int64_t warmups = 1;
  double min_time = 0.0;
  double noise_target = 0.0;  // 0: none
  double max_time = 300.0;
  std::int64_t max_repetitions = 1000;
};

std::vector<ParamSpec> measure_specs(const MeasureDefaults& defaults);
// Reads the options, falling back to `defaults` for any not in the context; throws
// std::invalid_argument naming the parameter when a value is out of range.
MeasureOptions measure_options(const Context& ctx, const MeasureDefaults& defaults);

}  // namespace perfzero::params
