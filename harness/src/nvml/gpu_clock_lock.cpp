#include "nvml/gpu_clock_lock.hpp"

#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

namespace perfzero::nvml {

std::optional<ClockLock> clock_lock_from(const std::string& name) {
  if (name == "base") return ClockLock::base;
  if (name == "max") return ClockLock::max;
  return std::nullopt;
}

std::string clock_lock_name(ClockLock how) { return how == ClockLock::base ? "base" : "max"; }

GpuClockLock::GpuClockLock(ClockLock how) {
  std::string why;
  nvml_ = Library::open(why);
  if (!nvml_) throw std::runtime_error("no NVIDIA driver to lock clocks with: " + why);
  if (nvml_->device_count() == 0) throw std::runtime_error("NVML sees no GPU to lock");
  nlohmann::json gpus = nlohmann::json::array();
  for (unsigned i = 0; i < nvml_->device_count(); ++i) {
    // NVML cannot read an earlier lock back, so one found is reset, not restored, after the run.
    const bool held_before = nvml_->settings(i).clocks_held_by_setting.value_or(false);
    if (const std::string error = nvml_->lock_clocks(i, how); !error.empty()) {
      for (const unsigned done : locked_) (void)nvml_->reset_locked_clocks(done);
      locked_.clear();
      throw std::runtime_error(error);
    }
    locked_.push_back(i);
    if (held_before) {
      std::fprintf(stderr,
                   "perfzero: warning: --lock_gpu_clocks: GPU %u's clocks were already held by a setting (an earlier "
                   "lock, or application clocks); NVML cannot read it back, so it is reset, not restored, after the "
                   "run\n",
                   i);
    }
    std::vector<std::string> errors;
    const auto reading = nvml_->read(i, errors);
    nlohmann::json g = {{"gpu", i}, {"model", nvml_->describe(i).model}, {"held_before", held_before}};
    if (reading.sm_clock_mhz) g["sm_clock_mhz"] = *reading.sm_clock_mhz;
    gpus.push_back(std::move(g));
  }
  record_ = {{"mode", clock_lock_name(how)}, {"gpus", std::move(gpus)}};
}

GpuClockLock::~GpuClockLock() {
  for (const unsigned i : locked_) {
    if (const std::string error = nvml_->reset_locked_clocks(i); !error.empty()) {
      std::fprintf(stderr,
                   "perfzero: warning: --lock_gpu_clocks: could not release the clocks: %s; "
                   "nvidia-smi -rgc releases them\n",
                   error.c_str());
    }
  }
}

}  // namespace perfzero::nvml
