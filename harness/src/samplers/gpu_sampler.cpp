#include "samplers/gpu_sampler.hpp"

#include <algorithm>
#include <limits>

namespace perfzero::samplers {

namespace {

constexpr std::size_t kMaxDistinctErrors = 20;

double or_nan(const std::optional<double>& v) { return v.value_or(std::numeric_limits<double>::quiet_NaN()); }

}  // namespace

std::unique_ptr<Sampler> GpuSampler::make() {
  std::string why;
  std::shared_ptr<nvml::Library> nvml = nvml::Library::open(why);
  if (!nvml || nvml->device_count() == 0) return nullptr;
  return std::make_unique<GpuSampler>(std::move(nvml));
}

std::unique_ptr<Sampler> GpuSampler::make_on_process_nvml() {
  static const std::shared_ptr<nvml::Library> nvml = [] {
    std::string why;
    return std::shared_ptr<nvml::Library>(nvml::Library::open(why));
  }();
  if (!nvml || nvml->device_count() == 0) return nullptr;
  return std::make_unique<GpuSampler>(nvml);
}

GpuSampler::GpuSampler(std::shared_ptr<nvml::Library> nvml) : nvml_(std::move(nvml)) {
  for (unsigned i = 0; i < nvml_->device_count(); ++i) gpus_.push_back(nvml_->describe(i));
  stats_.resize(gpus_.size());
  last_nvlink_.resize(gpus_.size());
}

const std::vector<std::string>& GpuSampler::columns() {
  static const std::vector<std::string> names{"time",
                                              "gpu",
                                              "sm_util_percent",
                                              "memory_util_percent",
                                              "memory_used_bytes",
                                              "power_watts",
                                              "sm_clock_mhz",
                                              "memory_clock_mhz",
                                              "temperature_c",
                                              "throttle_reasons",
                                              "pcie_tx_mb_per_s",
                                              "pcie_rx_mb_per_s",
                                              "nvlink_tx_mb_per_s",
                                              "nvlink_rx_mb_per_s"};
  return names;
}

void GpuSampler::start(pid_t /*root*/) {
  series_.sampler = name();
  series_.columns = columns();
}

void GpuSampler::note_error(const std::string& error) {
  ++error_count_;
  if (errors_.size() < kMaxDistinctErrors && std::find(errors_.begin(), errors_.end(), error) == errors_.end()) {
    errors_.push_back(error);
  }
}

void GpuSampler::add_nvlink_rates(unsigned gpu, nvml::GpuReading& reading) {
  if (!reading.nvlink_time_us) return;
  const nvml::GpuReading& last = last_nvlink_[gpu];
  if (last.nvlink_time_us && *reading.nvlink_time_us > *last.nvlink_time_us &&
      *reading.nvlink_tx_kib >= *last.nvlink_tx_kib && *reading.nvlink_rx_kib >= *last.nvlink_rx_kib) {
    // KiB over microseconds: 1024 bytes per microsecond is 1024 MB/s.
    const double us = *reading.nvlink_time_us - *last.nvlink_time_us;
    reading.nvlink_tx_mb_per_s = (*reading.nvlink_tx_kib - *last.nvlink_tx_kib) * 1024.0 / us;
    reading.nvlink_rx_mb_per_s = (*reading.nvlink_rx_kib - *last.nvlink_rx_kib) * 1024.0 / us;
  }
  last_nvlink_[gpu] = reading;
}

void GpuSampler::sample(double time) {
  for (unsigned i = 0; i < gpus_.size(); ++i) {
    std::vector<std::string> errors;
    nvml::GpuReading r = nvml_->read(i, errors);
    add_nvlink_rates(i, r);
    for (const auto& e : errors) note_error(e);
    stats_[i].add(r);
    // Throttle bits are exact in a double (NVML defines 9 of them); an unread value is NaN.
    const double reasons = r.throttle_reasons ? static_cast<double>(*r.throttle_reasons) : or_nan(std::nullopt);
    series_.rows.push_back({time, static_cast<double>(i), or_nan(r.sm_util_percent), or_nan(r.memory_util_percent),
                            or_nan(r.memory_used_bytes), or_nan(r.power_watts), or_nan(r.sm_clock_mhz),
                            or_nan(r.memory_clock_mhz), or_nan(r.temperature_c), reasons, or_nan(r.pcie_tx_mb_per_s),
                            or_nan(r.pcie_rx_mb_per_s), or_nan(r.nvlink_tx_mb_per_s), or_nan(r.nvlink_rx_mb_per_s)});
  }
}

SamplerOutput GpuSampler::finish(const TrialFacts& /*facts*/) {
  SamplerOutput out;
  nlohmann::json gpus = nlohmann::json::array();
  bool throttled = false;
  for (std::size_t i = 0; i < gpus_.size(); ++i) {
    nlohmann::json g = stats_[i].summary();
    g["index"] = i;
    g["model"] = gpus_[i].model;
    throttled = throttled || stats_[i].throttled();
    gpus.push_back(std::move(g));
  }
  out.summary = {{"available", true},      {"gpus", std::move(gpus)},
                 {"throttled", throttled}, {"error_count", error_count_},
                 {"errors", errors_},      {"missing_symbols", nvml_->missing_symbols()}};
  if (throttled) out.flags.push_back("gpu_throttled");
  out.series = std::move(series_);
  return out;
}

}  // namespace perfzero::samplers
