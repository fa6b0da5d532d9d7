#include "samplers/gpu_stats.hpp"

#include <algorithm>

namespace perfzero::samplers {

void GpuStats::add(const char* name, const std::optional<double>& value) {
  if (!value) return;
  Running& r = readings_[name];
  r.max = r.count == 0 ? *value : std::max(r.max, *value);
  r.sum += *value;
  ++r.count;
}

void GpuStats::add(const nvml::GpuReading& reading) {
  ++samples_;
  add("sm_util_percent", reading.sm_util_percent);
  add("memory_util_percent", reading.memory_util_percent);
  add("memory_used_bytes", reading.memory_used_bytes);
  add("power_watts", reading.power_watts);
  add("sm_clock_mhz", reading.sm_clock_mhz);
  add("memory_clock_mhz", reading.memory_clock_mhz);
  add("temperature_c", reading.temperature_c);
  add("pcie_tx_mb_per_s", reading.pcie_tx_mb_per_s);
  add("pcie_rx_mb_per_s", reading.pcie_rx_mb_per_s);
  add("nvlink_tx_mb_per_s", reading.nvlink_tx_mb_per_s);
  add("nvlink_rx_mb_per_s", reading.nvlink_rx_mb_per_s);
  if (reading.throttle_reasons && nvml::is_performance_throttle(*reading.throttle_reasons)) {
    ++throttled_samples_;
    throttle_bits_seen_ |= *reading.throttle_reasons;
  }
}

nlohmann::json GpuStats::summary() const {
  nlohmann::json out = {{"samples", samples_}};
  for (const auto& [name, r] : readings_) {
    out[name] = {{"max", r.max}, {"mean", r.sum / static_cast<double>(r.count)}};
  }
  out["throttled"] = throttled();
  out["throttled_samples"] = throttled_samples_;
  out["throttle_reasons"] = nvml::throttle_reason_names(throttle_bits_seen_);
  return out;
}

}  // namespace perfzero::samplers
