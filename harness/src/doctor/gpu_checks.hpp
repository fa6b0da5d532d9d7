#pragma once
// The doctor's NVIDIA GPU checks, through NVML where it loads: persistence mode, locked clocks,
// ECC, throttle reasons, and XID errors (those NVML reports while the doctor runs, and those the
// driver logged since boot). Nothing when there is no GPU.
#include <memory>
#include <string>
#include <vector>

#include "doctor/machine_checks.hpp"

namespace perfzero::nvml {
class Library;
}

namespace perfzero::doctor {

class GpuChecks {
 public:
  // Made at the start of the doctor's window, so XID errors during the other checks are caught.
  explicit GpuChecks(DoctorPaths paths);
  ~GpuChecks();
  GpuChecks(const GpuChecks&) = delete;
  GpuChecks& operator=(const GpuChecks&) = delete;

  std::vector<Check> finish();

 private:
  DoctorPaths paths_;
  std::unique_ptr<nvml::Library> nvml_;
  std::string watch_error_;  // why XIDs could not be watched, "" when they were
};

}  // namespace perfzero::doctor
