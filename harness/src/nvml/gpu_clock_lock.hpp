#pragma once
// --lock_gpu_clocks: every GPU NVML sees held at one SM clock for the whole run, as nvbench's
// --lock-gpu-clocks does, so boost, temperature and power stop moving the figures. Released when
// this object goes (a normal end, an error, a stop by signal). A kill -9 of perfzero leaves the
// clocks locked: `perfzero doctor` then reports them held, and `nvidia-smi -rgc` releases them.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nvml/nvml_library.hpp"

namespace perfzero::nvml {

// "base" or "max"; nullopt for anything else.
std::optional<ClockLock> clock_lock_from(const std::string& name);
std::string clock_lock_name(ClockLock how);

// Test-only: the host-wide lock file to take instead of /run/lock/perfzero-gpu-clocks.lock.
inline constexpr const char* kLockFileEnv = "PERFZERO_TEST_GPU_LOCK_FILE";

class GpuClockLock {
 public:
  // Locks every GPU NVML sees, or none: throws std::runtime_error saying why (no NVML, no GPU, not
  // root, another perfzero run on this host holding them, a GPU already held by a setting), after
  // releasing those it had locked. A GPU already held is refused, not taken over: its holder would
  // find it reset under it when this run ends.
  explicit GpuClockLock(ClockLock how);
  ~GpuClockLock();  // releases each GPU; a failure is a warning on stderr
  GpuClockLock(const GpuClockLock&) = delete;
  GpuClockLock& operator=(const GpuClockLock&) = delete;

  // run.json's run.system.gpu_clock_lock: {"mode", "gpus": [{"gpu", "model", "sm_clock_mhz"}]}
  const nlohmann::json& record() const { return record_; }

 private:
  void release();
  int host_lock_fd_ = -1;  // flock'ed for the run: one perfzero run locks this host's clocks at a time
  std::unique_ptr<Library> nvml_;
  std::vector<unsigned> locked_;
  nlohmann::json record_;
};

}  // namespace perfzero::nvml
