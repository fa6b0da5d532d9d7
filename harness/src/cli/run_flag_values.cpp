#include "cli/run_flag_values.hpp"

#include <charconv>
#include <limits>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "nvml/gpu_clock_lock.hpp"
#include "samplers/counter_readings.hpp"

namespace perfzero::cli {

namespace {

int int_value(const std::string& flag, const std::string& value, int min, int max) {
  int out = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (ec != std::errc{} || ptr != value.data() + value.size() || out < min || out > max) {
    throw UsageError(fmt::format("--{}: expected a whole number from {} to {}, got '{}'", flag, min, max, value));
  }
  return out;
}

double seconds_value(const std::string& flag, const std::string& value) {
  std::string problem;
  const auto d = text::parse_duration(value, problem);
  if (!d) throw UsageError(fmt::format("--{}: {}, got '{}'", flag, problem, value));
  return static_cast<double>(d->count()) / 1000.0;
}

void convert_auto_limits(const RawValues& raw, Options& o) {
  if (!raw.min_trials.empty()) o.settings.min_trials = int_value("min_trials", raw.min_trials, 1, 100000);
  if (!raw.max_trials.empty()) o.settings.max_trials = int_value("max_trials", raw.max_trials, 1, 100000);
  if (!raw.min_time.empty()) o.settings.min_seconds = seconds_value("min_time", raw.min_time);
  if (!raw.max_time.empty()) o.settings.max_seconds = seconds_value("max_time", raw.max_time);
  if (!raw.max_noise.empty()) {
    double pct = 0;
    const auto [ptr, ec] = std::from_chars(raw.max_noise.data(), raw.max_noise.data() + raw.max_noise.size(), pct);
    if (ec != std::errc{} || ptr != raw.max_noise.data() + raw.max_noise.size() || !(pct > 0 && pct <= 100)) {
      throw UsageError(
          fmt::format("--max_noise: expected a percentage above 0 and at most 100, got '{}'", raw.max_noise));
    }
    o.settings.max_noise = pct / 100.0;
  }
  const bool limits = !raw.min_trials.empty() || !raw.max_trials.empty() || !raw.min_time.empty() ||
                      !raw.max_time.empty() || !raw.max_noise.empty();
  if (limits && raw.trials != "auto" && !raw.trials.empty()) {
    throw UsageError(
        "--min_trials, --max_trials, --min_time, --max_time and --max_noise go with "
        "--benchmark_num_trials=auto (or trials: auto in a suite), not with a number of trials");
  }
  if (o.settings.min_trials && o.settings.max_trials && *o.settings.min_trials > *o.settings.max_trials) {
    throw UsageError(
        fmt::format("--min_trials {} is above --max_trials {}", *o.settings.min_trials, *o.settings.max_trials));
  }
}

}  // namespace

void convert_raw_values(const RawValues& raw, Options& o) {
  if (raw.trials == "auto") {
    o.settings.trials_auto = true;
  } else if (!raw.trials.empty()) {
    o.settings.trials = int_value("benchmark_num_trials", raw.trials, 1, 100000);
  }
  convert_auto_limits(raw, o);
  if (!raw.warmup.empty()) o.settings.warmup_trials = int_value("warmup_trials", raw.warmup, 0, 100000);
  if (!raw.interval.empty()) {
    o.settings.monitor_interval =
        std::chrono::milliseconds(int_value("monitor_interval_ms", raw.interval, 1, 3'600'000));
  }
  o.doctor = raw.doctor;
  if (!raw.lock_gpu_clocks.empty()) {
    if (!nvml::clock_lock_from(raw.lock_gpu_clocks)) {
      throw UsageError(fmt::format("--lock_gpu_clocks: '{}' is not base or max", raw.lock_gpu_clocks));
    }
    o.lock_gpu_clocks = raw.lock_gpu_clocks;
  }
  if (!raw.cpu_throttle_threshold.empty()) {
    o.cpu_throttle_threshold = int_value("cpu_throttle_threshold", raw.cpu_throttle_threshold, 1, 100) / 100.0;
  }
  if (!raw.cpu_throttle_share.empty()) {
    o.cpu_throttle_share = int_value("cpu_throttle_share", raw.cpu_throttle_share, 0, 100) / 100.0;
  }
  if (!raw.counters.empty()) {
    std::string why;
    const auto bits = samplers::counter_set(raw.counters, why);
    if (!bits) throw UsageError(why);
    o.counters = *bits;
  }
  if (!raw.max_cases.empty()) {
    try {
      o.max_cases = int_value("max_cases", raw.max_cases, 1, config::kMaxCasesCeiling);
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("{} ({})", e.what(), config::kMaxCasesWhy));
    }
  }
  if (!raw.max_result_bytes.empty()) {
    o.settings.max_result_bytes =
        int_value("max_result_bytes", raw.max_result_bytes, config::kMinByteLimit, std::numeric_limits<int>::max());
  }
  if (!raw.max_log_bytes.empty()) {
    o.settings.max_log_bytes =
        int_value("max_log_bytes", raw.max_log_bytes, config::kMinByteLimit, std::numeric_limits<int>::max());
  }
  if (!raw.launch.empty()) {
    try {
      o.settings.launch = config::parse_launch_text(raw.launch);
    } catch (const ConfigError& e) {
      throw UsageError(e.what());
    }
  }
  if (!raw.timeout.empty()) {
    std::string problem;
    const auto d = text::parse_duration(raw.timeout, problem);
    if (!d) throw UsageError(fmt::format("--timeout: {}, got '{}'", problem, raw.timeout));
    o.settings.timeout = *d;
  }
}

}  // namespace perfzero::cli
