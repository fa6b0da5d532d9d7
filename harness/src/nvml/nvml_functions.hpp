#pragma once
// The NVML entry points a Library found (dlsym), shared by the two files that define its members:
// nvml_library.cpp loads them, nvml_gpu_queries.cpp asks a GPU what it is and what it does.
#include <string>
#include <vector>

#include "nvml/nvml_api.h"
#include "nvml/nvml_library.hpp"

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

}  // namespace perfzero::nvml
