#include "nvml/nvml_library.hpp"

#include <dlfcn.h>

#include <array>
#include <cstdlib>
#include <utility>

#include <fmt/format.h>

#include "nvml/nvml_api.h"
#include "nvml/nvml_functions.hpp"

namespace perfzero::nvml {

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

// The symbols a reading or setting may lack: each one missing costs only what it reads, and is
// listed in f.missing.
void load_optional_symbols(void* handle, Library::Functions& f) {
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
  load_optional_symbols(handle, f);
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

}  // namespace perfzero::nvml
