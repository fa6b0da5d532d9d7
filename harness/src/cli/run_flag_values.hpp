#pragma once
// `perfzero run`'s numeric, duration and named-set flags: CLI11 hands them over as text, and they are
// checked after parsing so that each error names its flag and what it accepts.
#include <string>

#include "cli/options.hpp"

namespace perfzero::cli {

struct RawValues {
  std::string trials;
  std::string warmup;
  std::string timeout;
  std::string interval;
  std::string launch;
  std::string counters;
  std::string lock_gpu_clocks;
  std::string cpu_throttle_threshold;
  std::string cpu_throttle_share;
  bool doctor = false;
  std::string max_cases;
  std::string max_result_bytes;
  std::string max_log_bytes;
  std::string min_trials;
  std::string max_trials;
  std::string min_time;
  std::string max_time;
  std::string max_noise;
};

// Fills `o` from `raw`; throws UsageError naming the flag for a value out of range or unknown.
void convert_raw_values(const RawValues& raw, Options& o);

}  // namespace perfzero::cli
