// Library's questions to one GPU: what it is (describe), how it is set (settings) and what it does
// now (read), each through the entry points nvml_library.cpp loaded.
#include <array>
#include <climits>
#include <optional>

#include <fmt/format.h>

#include "nvml/nvml_api.h"
#include "nvml/nvml_functions.hpp"
#include "nvml/nvml_library.hpp"

namespace perfzero::nvml {

GpuSettings Library::settings(unsigned index) {
  GpuSettings s;
  auto device = static_cast<nvmlDevice_t>(devices_.at(index));
  const Functions& f = *fn_;
  nvmlEnableState_t mode{};
  if (f.persistence != nullptr && f.persistence(device, &mode) == NVML_SUCCESS) {
    s.persistence_mode = mode == NVML_FEATURE_ENABLED;
  }
  unsigned long long reasons = 0;
  if (f.throttle != nullptr && f.throttle(device, &reasons) == NVML_SUCCESS) {
    s.clocks_held_by_setting = (reasons & nvmlClocksThrottleReasonApplicationsClocksSetting) != 0;
  }
  unsigned mhz = 0;
  if (f.application_clock != nullptr && f.application_clock(device, NVML_CLOCK_SM, &mhz) == NVML_SUCCESS) {
    s.application_sm_clock_mhz = mhz;
  }
  if (f.default_application_clock != nullptr &&
      f.default_application_clock(device, NVML_CLOCK_SM, &mhz) == NVML_SUCCESS) {
    s.default_application_sm_clock_mhz = mhz;
  }
  return s;
}

GpuDescription Library::describe(unsigned index) {
  GpuDescription d;
  auto device = static_cast<nvmlDevice_t>(devices_.at(index));
  const Functions& f = *fn_;
  std::array<char, NVML_DEVICE_NAME_V2_BUFFER_SIZE> name{};
  if (f.name != nullptr && f.name(device, name.data(), name.size()) == NVML_SUCCESS) {
    name.back() = '\0';
    d.model = name.data();
  }
  nvmlMemory_t memory{};
  if (f.memory != nullptr && f.memory(device, &memory) == NVML_SUCCESS) d.memory_bytes = memory.total;
  int major = 0;
  int minor = 0;
  if (f.compute_capability != nullptr && f.compute_capability(device, &major, &minor) == NVML_SUCCESS) {
    d.compute_capability = fmt::format("{}.{}", major, minor);
  }
  unsigned current = 0;
  unsigned pending = 0;
  if (f.mig != nullptr && f.mig(device, &current, &pending) == NVML_SUCCESS) d.mig_enabled = current != 0;
  nvmlEnableState_t ecc{};
  nvmlEnableState_t ecc_pending{};
  if (f.ecc != nullptr && f.ecc(device, &ecc, &ecc_pending) == NVML_SUCCESS) {
    d.ecc_enabled = ecc == NVML_FEATURE_ENABLED;
  }
  unsigned value = 0;
  if (f.pcie_generation != nullptr && f.pcie_generation(device, &value) == NVML_SUCCESS) d.pcie_generation = value;
  if (f.pcie_width != nullptr && f.pcie_width(device, &value) == NVML_SUCCESS) d.pcie_width = value;
  if (f.max_clock != nullptr && f.max_clock(device, NVML_CLOCK_SM, &value) == NVML_SUCCESS) d.max_sm_clock_mhz = value;
  return d;
}

namespace {

// One call per reading: a failing call costs its value and one line in `errors`, never the
// sample. NOT_SUPPORTED is quietly empty: many GPUs lack a counter, and that is no error.
struct CallCheck {
  const Library::Functions& f;
  unsigned index;
  std::vector<std::string>& errors;

  bool operator()(const char* call, nvmlReturn_t rc) const {
    if (rc == NVML_SUCCESS) return true;
    if (rc != NVML_ERROR_NOT_SUPPORTED) {
      errors.push_back(fmt::format("{} on GPU {}: {} ({})", call, index,
                                   f.error_string != nullptr ? f.error_string(rc) : "error", static_cast<int>(rc)));
    }
    return false;
  }
};

std::optional<double> field_number(const nvmlFieldValue_t& v) {
  switch (v.valueType) {
    case NVML_VALUE_TYPE_UNSIGNED_LONG_LONG:
      return static_cast<double>(v.value.ullVal);
    case NVML_VALUE_TYPE_UNSIGNED_LONG:
      return static_cast<double>(v.value.ulVal);
    case NVML_VALUE_TYPE_UNSIGNED_INT:
      return static_cast<double>(v.value.uiVal);
    case NVML_VALUE_TYPE_DOUBLE:
      return v.value.dVal;
    default:
      return std::nullopt;
  }
}

// NVLink: both counters or neither (a GPU without NVLink answers NOT_SUPPORTED per field).
void read_nvlink(const Library::Functions& f, nvmlDevice_t device, const CallCheck& ok, GpuReading& r) {
  std::array<nvmlFieldValue_t, 2> fields{};
  fields[0].fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX;
  fields[1].fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX;
  fields[0].scopeId = fields[1].scopeId = UINT_MAX;  // every link
  if (f.field_values != nullptr &&
      ok("nvmlDeviceGetFieldValues(NVLink)", f.field_values(device, static_cast<int>(fields.size()), fields.data())) &&
      fields[0].nvmlReturn == NVML_SUCCESS && fields[1].nvmlReturn == NVML_SUCCESS) {
    r.nvlink_tx_kib = field_number(fields[0]);
    r.nvlink_rx_kib = field_number(fields[1]);
    if (r.nvlink_tx_kib && r.nvlink_rx_kib) r.nvlink_time_us = static_cast<double>(fields[0].timestamp);
  }
}

}  // namespace

GpuReading Library::read(unsigned index, std::vector<std::string>& errors) {
  GpuReading r;
  auto device = static_cast<nvmlDevice_t>(devices_.at(index));
  const Functions& f = *fn_;
  const CallCheck ok{f, index, errors};
  nvmlUtilization_t util{};
  if (f.utilization != nullptr && ok("nvmlDeviceGetUtilizationRates", f.utilization(device, &util))) {
    r.sm_util_percent = util.gpu;
    r.memory_util_percent = util.memory;
  }
  nvmlMemory_t memory{};
  if (f.memory != nullptr && ok("nvmlDeviceGetMemoryInfo", f.memory(device, &memory))) {
    r.memory_used_bytes = static_cast<double>(memory.used);
  }
  unsigned value = 0;
  if (f.power != nullptr && ok("nvmlDeviceGetPowerUsage", f.power(device, &value))) r.power_watts = value / 1000.0;
  if (f.clock != nullptr && ok("nvmlDeviceGetClockInfo(SM)", f.clock(device, NVML_CLOCK_SM, &value))) {
    r.sm_clock_mhz = value;
  }
  if (f.clock != nullptr && ok("nvmlDeviceGetClockInfo(MEM)", f.clock(device, NVML_CLOCK_MEM, &value))) {
    r.memory_clock_mhz = value;
  }
  if (f.temperature != nullptr && ok("nvmlDeviceGetTemperature", f.temperature(device, NVML_TEMPERATURE_GPU, &value))) {
    r.temperature_c = value;
  }
  unsigned long long reasons = 0;
  if (f.throttle != nullptr && ok("nvmlDeviceGetCurrentClocksEventReasons", f.throttle(device, &reasons))) {
    r.throttle_reasons = reasons;
  }
  // NVML reports PCIe throughput in KB/s over its last 20 ms window.
  if (f.pcie != nullptr && ok("nvmlDeviceGetPcieThroughput(TX)", f.pcie(device, NVML_PCIE_UTIL_TX_BYTES, &value))) {
    r.pcie_tx_mb_per_s = value / 1000.0;
  }
  if (f.pcie != nullptr && ok("nvmlDeviceGetPcieThroughput(RX)", f.pcie(device, NVML_PCIE_UTIL_RX_BYTES, &value))) {
    r.pcie_rx_mb_per_s = value / 1000.0;
  }
  read_nvlink(f, device, ok, r);
  return r;
}

}  // namespace perfzero::nvml
