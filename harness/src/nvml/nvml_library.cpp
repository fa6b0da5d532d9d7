#include "nvml/nvml_library.hpp"

#include <dlfcn.h>

#include <array>
#include <climits>
#include <cstdlib>

#include <fmt/format.h>

#include "nvml/nvml_api.h"

namespace perfzero::nvml {

// Pointer types come from nvml.h's declarations (decltype), so a signature can never drift from it.
struct Library::Functions {
  decltype(&nvmlInit_v2) init = nullptr;
  decltype(&nvmlShutdown) shutdown = nullptr;
  decltype(&nvmlDeviceGetCount_v2) count = nullptr;
  decltype(&nvmlDeviceGetHandleByIndex_v2) handle = nullptr;
  decltype(&nvmlErrorString) error_string = nullptr;
  decltype(&nvmlSystemGetDriverVersion) driver_version = nullptr;
  decltype(&nvmlSystemGetCudaDriverVersion_v2) cuda_driver_version = nullptr;
  decltype(&nvmlDeviceGetName) name = nullptr;
  decltype(&nvmlDeviceGetMemoryInfo) memory = nullptr;
  decltype(&nvmlDeviceGetUtilizationRates) utilization = nullptr;
  decltype(&nvmlDeviceGetPowerUsage) power = nullptr;
  decltype(&nvmlDeviceGetClockInfo) clock = nullptr;
  decltype(&nvmlDeviceGetMaxClockInfo) max_clock = nullptr;
  decltype(&nvmlDeviceGetTemperature) temperature = nullptr;
  decltype(&nvmlDeviceGetCurrentClocksThrottleReasons) throttle = nullptr;
  decltype(&nvmlDeviceGetPcieThroughput) pcie = nullptr;
  decltype(&nvmlDeviceGetCudaComputeCapability) compute_capability = nullptr;
  decltype(&nvmlDeviceGetMigMode) mig = nullptr;
  decltype(&nvmlDeviceGetEccMode) ecc = nullptr;
  decltype(&nvmlDeviceGetCurrPcieLinkGeneration) pcie_generation = nullptr;
  decltype(&nvmlDeviceGetCurrPcieLinkWidth) pcie_width = nullptr;
  decltype(&nvmlDeviceGetHandleByPciBusId_v2) by_pci_bus = nullptr;
  decltype(&nvmlDeviceGetFieldValues) field_values = nullptr;
  decltype(&nvmlDeviceGetPersistenceMode) persistence = nullptr;
  decltype(&nvmlDeviceGetApplicationsClock) application_clock = nullptr;
  decltype(&nvmlDeviceGetDefaultApplicationsClock) default_application_clock = nullptr;
  decltype(&nvmlDeviceSetGpuLockedClocks) lock_clocks = nullptr;
  decltype(&nvmlDeviceResetGpuLockedClocks) reset_locked_clocks = nullptr;
  decltype(&nvmlEventSetCreate) event_set_create = nullptr;
  decltype(&nvmlDeviceRegisterEvents) register_events = nullptr;
  decltype(&nvmlEventSetWait_v2) event_set_wait = nullptr;
  decltype(&nvmlEventSetFree) event_set_free = nullptr;
  std::vector<std::string> missing;
};

namespace {

template <typename Fn>
void load(void* lib, const char* symbol, Fn& out, std::vector<std::string>& missing) {
  out = reinterpret_cast<Fn>(::dlsym(lib, symbol));
  if (out == nullptr) missing.emplace_back(symbol);
}

std::string library_path() {
  const char* test_path = std::getenv(kLibraryEnv);
  return test_path != nullptr && *test_path != '\0' ? test_path : "libnvidia-ml.so.1";
}

constexpr std::array<std::pair<std::uint64_t, const char*>, 6> kPerformanceThrottles{{
    {nvmlClocksThrottleReasonSwPowerCap, "sw_power_cap"},
    {nvmlClocksThrottleReasonHwSlowdown, "hw_slowdown"},
    {nvmlClocksThrottleReasonSwThermalSlowdown, "sw_thermal"},
    {nvmlClocksThrottleReasonHwThermalSlowdown, "hw_thermal"},
    {nvmlClocksThrottleReasonHwPowerBrakeSlowdown, "hw_power_brake"},
    {nvmlClocksThrottleReasonSyncBoost, "sync_boost"},
}};

}  // namespace

bool is_performance_throttle(std::uint64_t reasons) {
  // Sync boost (the last entry) is a multi-GPU clock policy, not a slowdown caused by the work.
  for (std::size_t i = 0; i + 1 < kPerformanceThrottles.size(); ++i) {
    if ((reasons & kPerformanceThrottles[i].first) != 0) return true;
  }
  return false;
}

std::string throttle_reason_names(std::uint64_t reasons) {
  std::string out;
  for (const auto& [bit, name] : kPerformanceThrottles) {
    if ((reasons & bit) == 0) continue;
    if (!out.empty()) out += ',';
    out += name;
  }
  return out;
}

std::unique_ptr<Library> Library::open(std::string& why) {
  const std::string path = library_path();
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = ::dlerror();
    why = fmt::format("cannot load {}: {}", path, error != nullptr ? error : "unknown error");
    return nullptr;
  }
  std::unique_ptr<Library> lib(new Library());
  lib->handle_ = handle;
  lib->fn_ = std::make_unique<Functions>();
  Functions& f = *lib->fn_;
  std::vector<std::string> required_missing;
  load(handle, "nvmlInit_v2", f.init, required_missing);
  load(handle, "nvmlShutdown", f.shutdown, required_missing);
  load(handle, "nvmlDeviceGetCount_v2", f.count, required_missing);
  load(handle, "nvmlDeviceGetHandleByIndex_v2", f.handle, required_missing);
  if (!required_missing.empty()) {
    why = fmt::format("{} lacks {}", path, required_missing.front());
    f.init = nullptr;  // never initialized: the destructor must not shut it down
    return nullptr;
  }
  load(handle, "nvmlErrorString", f.error_string, f.missing);
  load(handle, "nvmlSystemGetDriverVersion", f.driver_version, f.missing);
  load(handle, "nvmlSystemGetCudaDriverVersion_v2", f.cuda_driver_version, f.missing);
  load(handle, "nvmlDeviceGetName", f.name, f.missing);
  load(handle, "nvmlDeviceGetMemoryInfo", f.memory, f.missing);
  load(handle, "nvmlDeviceGetUtilizationRates", f.utilization, f.missing);
  load(handle, "nvmlDeviceGetPowerUsage", f.power, f.missing);
  load(handle, "nvmlDeviceGetClockInfo", f.clock, f.missing);
  load(handle, "nvmlDeviceGetMaxClockInfo", f.max_clock, f.missing);
  load(handle, "nvmlDeviceGetTemperature", f.temperature, f.missing);
  // Drivers since r535 call throttle reasons "clocks event reasons"; same signature and bits.
  std::vector<std::string> ignored;
  load(handle, "nvmlDeviceGetCurrentClocksEventReasons", f.throttle, ignored);
  if (f.throttle == nullptr) load(handle, "nvmlDeviceGetCurrentClocksThrottleReasons", f.throttle, f.missing);
  load(handle, "nvmlDeviceGetPcieThroughput", f.pcie, f.missing);
  load(handle, "nvmlDeviceGetCudaComputeCapability", f.compute_capability, f.missing);
  load(handle, "nvmlDeviceGetMigMode", f.mig, f.missing);
  load(handle, "nvmlDeviceGetEccMode", f.ecc, f.missing);
  load(handle, "nvmlDeviceGetCurrPcieLinkGeneration", f.pcie_generation, f.missing);
  load(handle, "nvmlDeviceGetCurrPcieLinkWidth", f.pcie_width, f.missing);
  load(handle, "nvmlDeviceGetHandleByPciBusId_v2", f.by_pci_bus, f.missing);
  load(handle, "nvmlDeviceGetFieldValues", f.field_values, f.missing);
  load(handle, "nvmlDeviceGetPersistenceMode", f.persistence, f.missing);
  load(handle, "nvmlDeviceGetApplicationsClock", f.application_clock, f.missing);
  load(handle, "nvmlDeviceGetDefaultApplicationsClock", f.default_application_clock, f.missing);
  load(handle, "nvmlDeviceSetGpuLockedClocks", f.lock_clocks, f.missing);
  load(handle, "nvmlDeviceResetGpuLockedClocks", f.reset_locked_clocks, f.missing);
  load(handle, "nvmlEventSetCreate", f.event_set_create, f.missing);
  load(handle, "nvmlDeviceRegisterEvents", f.register_events, f.missing);
  load(handle, "nvmlEventSetWait_v2", f.event_set_wait, f.missing);
  load(handle, "nvmlEventSetFree", f.event_set_free, f.missing);
  if (const nvmlReturn_t rc = f.init(); rc != NVML_SUCCESS) {
    why = fmt::format("nvmlInit_v2 failed: {} ({})", f.error_string != nullptr ? f.error_string(rc) : "?",
                      static_cast<int>(rc));
    f.init = nullptr;
    return nullptr;
  }
  unsigned count = 0;
  if (const nvmlReturn_t rc = f.count(&count); rc != NVML_SUCCESS) count = 0;
  for (unsigned i = 0; i < count; ++i) {
    nvmlDevice_t device = nullptr;
    if (f.handle(i, &device) == NVML_SUCCESS) lib->devices_.push_back(device);
  }
  return lib;
}

Library::~Library() {
  if (fn_ && xid_events_ != nullptr && fn_->event_set_free != nullptr) {
    fn_->event_set_free(static_cast<nvmlEventSet_t>(xid_events_));
  }
  if (fn_ && fn_->init != nullptr) fn_->shutdown();
  if (handle_ != nullptr) ::dlclose(handle_);
}

unsigned Library::device_count() const { return static_cast<unsigned>(devices_.size()); }

const std::vector<std::string>& Library::missing_symbols() const { return fn_->missing; }

std::string Library::driver_version() {
  std::array<char, NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE> buffer{};
  if (fn_->driver_version == nullptr || fn_->driver_version(buffer.data(), buffer.size()) != NVML_SUCCESS) return "";
  buffer.back() = '\0';
  return buffer.data();
}

std::optional<int> Library::cuda_driver_version() {
  int version = 0;
  if (fn_->cuda_driver_version == nullptr || fn_->cuda_driver_version(&version) != NVML_SUCCESS) return std::nullopt;
  return version;
}

std::string Library::error_text(int rc) const {
  const auto code = static_cast<nvmlReturn_t>(rc);
  return fmt::format("{} ({})", fn_->error_string != nullptr ? fn_->error_string(code) : "error", rc);
}

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

std::string Library::lock_clocks(unsigned index, ClockLock how) {
  auto device = static_cast<nvmlDevice_t>(devices_.at(index));
  const Functions& f = *fn_;
  if (f.lock_clocks == nullptr) return "this NVML has no nvmlDeviceSetGpuLockedClocks (a driver before r418)";
  unsigned low = NVML_CLOCK_LIMIT_ID_TDP;
  unsigned high = NVML_CLOCK_LIMIT_ID_TDP;
  if (how == ClockLock::max) {
    // nvbench's choice: the highest SM clock, as both bounds, so boost cannot move it.
    unsigned max_mhz = 0;
    if (f.max_clock == nullptr || f.max_clock(device, NVML_CLOCK_SM, &max_mhz) != NVML_SUCCESS || max_mhz == 0) {
      return fmt::format("GPU {}: nvmlDeviceGetMaxClockInfo(SM) gave no clock to lock to", index);
    }
    low = high = max_mhz;
  }
  if (const nvmlReturn_t rc = f.lock_clocks(device, low, high); rc != NVML_SUCCESS) {
    return fmt::format("GPU {}: nvmlDeviceSetGpuLockedClocks: {}{}", index, error_text(rc),
                       rc == NVML_ERROR_NO_PERMISSION ? ": locking clocks needs root" : "");
  }
  return "";
}

std::string Library::reset_locked_clocks(unsigned index) {
  auto device = static_cast<nvmlDevice_t>(devices_.at(index));
  if (fn_->reset_locked_clocks == nullptr) return "this NVML has no nvmlDeviceResetGpuLockedClocks";
  if (const nvmlReturn_t rc = fn_->reset_locked_clocks(device); rc != NVML_SUCCESS) {
    return fmt::format("GPU {}: nvmlDeviceResetGpuLockedClocks: {}", index, error_text(rc));
  }
  return "";
}

std::string Library::watch_xids() {
  const Functions& f = *fn_;
  if (f.event_set_create == nullptr || f.register_events == nullptr || f.event_set_wait == nullptr) {
    return "this NVML has no event sets";
  }
  if (xid_events_ == nullptr) {
    nvmlEventSet_t set = nullptr;
    if (const nvmlReturn_t rc = f.event_set_create(&set); rc != NVML_SUCCESS) {
      return "nvmlEventSetCreate: " + error_text(rc);
    }
    xid_events_ = set;
  }
  for (unsigned i = 0; i < devices_.size(); ++i) {
    const nvmlReturn_t rc = f.register_events(static_cast<nvmlDevice_t>(devices_[i]), nvmlEventTypeXidCriticalError,
                                              static_cast<nvmlEventSet_t>(xid_events_));
    if (rc != NVML_SUCCESS) return fmt::format("GPU {}: nvmlDeviceRegisterEvents(XID): {}", i, error_text(rc));
  }
  return "";
}

std::vector<XidEvent> Library::take_xids() {
  std::vector<XidEvent> out;
  if (xid_events_ == nullptr) return out;
  // Timeout 0: only what has happened; a bound, so a driver that keeps reporting cannot hold us.
  constexpr int kMostEvents = 1000;
  for (int n = 0; n < kMostEvents; ++n) {
    nvmlEventData_t data{};
    if (fn_->event_set_wait(static_cast<nvmlEventSet_t>(xid_events_), &data, 0) != NVML_SUCCESS) break;
    if ((data.eventType & nvmlEventTypeXidCriticalError) == 0) continue;
    XidEvent e;
    e.xid = data.eventData;
    for (unsigned i = 0; i < devices_.size(); ++i) {
      if (devices_[i] == data.device) e.gpu = i;
    }
    out.push_back(e);
  }
  return out;
}

std::optional<unsigned> Library::index_of_pci_bus(const std::string& bus_id) {
  nvmlDevice_t device = nullptr;
  if (fn_->by_pci_bus == nullptr || fn_->by_pci_bus(bus_id.c_str(), &device) != NVML_SUCCESS) return std::nullopt;
  for (unsigned i = 0; i < devices_.size(); ++i) {
    if (devices_[i] == device) return i;
  }
  return std::nullopt;
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

GpuReading Library::read(unsigned index, std::vector<std::string>& errors) {
  GpuReading r;
  auto device = static_cast<nvmlDevice_t>(devices_.at(index));
  const Functions& f = *fn_;
  // One call per reading: a failing call costs its value and one line in `errors`, never the
  // sample. NOT_SUPPORTED is quietly empty: many GPUs lack a counter, and that is no error.
  auto ok = [&](const char* call, nvmlReturn_t rc) {
    if (rc == NVML_SUCCESS) return true;
    if (rc != NVML_ERROR_NOT_SUPPORTED) {
      errors.push_back(fmt::format("{} on GPU {}: {} ({})", call, index,
                                   f.error_string != nullptr ? f.error_string(rc) : "error", static_cast<int>(rc)));
    }
    return false;
  };
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
  // NVLink: both counters or neither (a GPU without NVLink answers NOT_SUPPORTED per field).
  std::array<nvmlFieldValue_t, 2> fields{};
  fields[0].fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX;
  fields[1].fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX;
  fields[0].scopeId = fields[1].scopeId = UINT_MAX;  // every link
  if (f.field_values != nullptr &&
      ok("nvmlDeviceGetFieldValues(NVLink)", f.field_values(device, static_cast<int>(fields.size()), fields.data())) &&
      fields[0].nvmlReturn == NVML_SUCCESS && fields[1].nvmlReturn == NVML_SUCCESS) {
    auto number = [](const nvmlFieldValue_t& v) -> std::optional<double> {
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
    };
    r.nvlink_tx_kib = number(fields[0]);
    r.nvlink_rx_kib = number(fields[1]);
    if (r.nvlink_tx_kib && r.nvlink_rx_kib) r.nvlink_time_us = static_cast<double>(fields[0].timestamp);
  }
  return r;
}

}  // namespace perfzero::nvml
