#include "nvml/gpu_clock_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace perfzero::nvml {

std::optional<ClockLock> clock_lock_from(const std::string& name) {
  if (name == "base") return ClockLock::base;
  if (name == "max") return ClockLock::max;
  return std::nullopt;
}

std::string clock_lock_name(ClockLock how) { return how == ClockLock::base ? "base" : "max"; }

namespace {

// One perfzero run at a time locks this host's clocks: a second would find them held, or, where the
// driver does not say so, reset them under the first when it ends. Held until the lock goes.
int take_host_lock() {
  const char* test_path = std::getenv(kLockFileEnv);
  const std::string path =
      test_path != nullptr && *test_path != '\0' ? test_path : "/run/lock/perfzero-gpu-clocks.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) throw std::runtime_error(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    ::close(fd);
    throw std::runtime_error(e == EWOULDBLOCK
                                 ? fmt::format("another perfzero run on this host holds the GPU clocks ({})", path)
                                 : fmt::format("cannot lock {}: {}", path, std::strerror(e)));
  }
  return fd;
}

}  // namespace

GpuClockLock::GpuClockLock(ClockLock how) {
  std::string why;
  nvml_ = Library::open(why);
  if (!nvml_) throw std::runtime_error("no NVIDIA driver to lock clocks with: " + why);
  if (nvml_->device_count() == 0) throw std::runtime_error("NVML sees no GPU to lock");
  host_lock_fd_ = take_host_lock();
  try {
    nlohmann::json gpus = nlohmann::json::array();
    for (unsigned i = 0; i < nvml_->device_count(); ++i) {
      if (nvml_->settings(i).clocks_held_by_setting.value_or(false)) {
        throw std::runtime_error(
            fmt::format("GPU {}'s clocks are already held by a setting (nvidia-smi -lgc, application clocks, or a "
                        "perfzero run killed with -9); NVML cannot read that setting back to restore it, so perfzero "
                        "does not take it over: nvidia-smi -rgc releases it",
                        i));
      }
      if (const std::string error = nvml_->lock_clocks(i, how); !error.empty()) throw std::runtime_error(error);
      locked_.push_back(i);
      std::vector<std::string> errors;
      const auto reading = nvml_->read(i, errors);
      nlohmann::json g = {{"gpu", i}, {"model", nvml_->describe(i).model}};
      if (reading.sm_clock_mhz) g["sm_clock_mhz"] = *reading.sm_clock_mhz;
      gpus.push_back(std::move(g));
    }
    record_ = {{"mode", clock_lock_name(how)}, {"gpus", std::move(gpus)}};
  } catch (...) {
    release();
    throw;
  }
}

void GpuClockLock::release() {
  for (const unsigned i : locked_) {
    if (const std::string error = nvml_->reset_locked_clocks(i); !error.empty()) {
      std::fprintf(stderr,
                   "perfzero: warning: --lock_gpu_clocks: could not release the clocks: %s; nvidia-smi -rgc "
                   "releases them\n",
                   error.c_str());
    }
  }
  locked_.clear();
  if (host_lock_fd_ >= 0) ::close(host_lock_fd_);
  host_lock_fd_ = -1;
}

GpuClockLock::~GpuClockLock() { release(); }

}  // namespace perfzero::nvml
