#pragma once
// The arithmetic of the GPU sampler, apart from NVML so tests feed it recorded readings: per GPU,
// the max and mean of every reading, and whether the GPU throttled (power, thermal, HW slowdown).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nvml/nvml_library.hpp"

namespace perfzero::samplers {

class GpuStats {
 public:
  void add(const nvml::GpuReading& reading);
  bool throttled() const { return throttled_samples_ > 0; }
  // {"samples": N, "sm_util_percent": {"max": .., "mean": ..}, ..., "throttled": bool,
  //  "throttled_samples": N, "throttle_reasons": "sw_thermal,..."}; readings never seen are left out.
  nlohmann::json summary() const;

 private:
  struct Running {
    double max = 0;
    double sum = 0;
    std::int64_t count = 0;
  };
  void add(const char* name, const std::optional<double>& value);

  std::int64_t samples_ = 0;
  std::map<std::string, Running> readings_;
  std::int64_t throttled_samples_ = 0;
  std::uint64_t throttle_bits_seen_ = 0;
};

}  // namespace perfzero::samplers
