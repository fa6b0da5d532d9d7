#include "perfzero/standard_params.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "perfzero/cpus.hpp"

namespace perfzero::params {

ParamSpec threads(std::int64_t default_value) {
  return {"threads", ParamType::integer, default_value,
          "threads (OpenMP threads for oneDNN); 0: all the CPUs this process may use (affinity, cgroup quota)"};
}

int threads_from(const Context& ctx) {
  const auto requested = ctx.int_param("threads");
  if (requested < 0) {
    throw std::invalid_argument(
        fmt::format("parameter 'threads' is {}; give a thread count, or 0 for all the CPUs allowed", requested));
  }
  return requested > 0 ? static_cast<int>(requested) : allowed_threads();
}

std::vector<ParamSpec> measure_specs(const MeasureDefaults& d) {
  return {
      {d.repetitions_name, ParamType::integer, d.repetitions, d.repetitions_description},
      {"warmups", ParamType::integer, d.warmups, "untimed repetitions before the timed ones"},
      {"min_time", ParamType::number, d.min_time, "seconds the timed repetitions must add up to, at least"},
      {"noise_target", ParamType::number, d.noise_target,
       "go on until the mean's 95 % confidence half-width is under this fraction of it (0.01: 1 %); 0: off"},
      {"max_time", ParamType::number, d.max_time, "seconds after which no repetition starts (warm-ups included)"},
      {"max_repetitions", ParamType::integer, d.max_repetitions, "timed repetitions at most"},
  };
}

namespace {

// Methods run by tests with a hand-made ParamMap may leave these out: the defaults then apply.
std::int64_t int_or(const Context& ctx, std::string_view name, std::int64_t fallback) {
  return ctx.params().count(name) != 0 ? ctx.int_param(name) : fallback;
}

double number_or(const Context& ctx, std::string_view name, double fallback) {
  return ctx.params().count(name) != 0 ? ctx.number_param(name) : fallback;
}

}  // namespace

MeasureOptions measure_options(const Context& ctx, const MeasureDefaults& d) {
  MeasureOptions o;
  o.min_repetitions = int_or(ctx, d.repetitions_name, d.repetitions);
  o.warmups = int_or(ctx, "warmups", d.warmups);
  o.min_time = number_or(ctx, "min_time", d.min_time);
  const double noise = number_or(ctx, "noise_target", d.noise_target);
  o.max_time = number_or(ctx, "max_time", d.max_time);
  o.max_repetitions = int_or(ctx, "max_repetitions", d.max_repetitions);
  auto bad = [](std::string_view name, auto value, std::string_view rule) {
    return std::invalid_argument(fmt::format("parameter '{}' is {}; it must be {}", name, value, rule));
  };
  if (o.min_repetitions < 1) throw bad(d.repetitions_name, o.min_repetitions, "at least 1");
  if (o.warmups < 0) throw bad("warmups", o.warmups, "0 or more");
  if (!(o.min_time >= 0)) throw bad("min_time", o.min_time, "0 or more seconds");
  if (!(noise >= 0)) throw bad("noise_target", noise, "0 (off) or a positive fraction");
  if (!(o.max_time > 0)) throw bad("max_time", o.max_time, "more than 0 seconds");
  if (o.max_repetitions < o.min_repetitions) {
    throw bad("max_repetitions", o.max_repetitions,
              fmt::format("at least {} ({})", o.min_repetitions, d.repetitions_name));
  }
  if (noise > 0) o.noise_target = noise;
  return o;
}

}  // namespace perfzero::params
