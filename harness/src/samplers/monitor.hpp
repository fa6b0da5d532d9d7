#pragma once
// The monitor's clock: one thread that wakes every interval and lets each sampler take a sample.
#include <chrono>
#include <thread>
#include <vector>

#include "samplers/sampler.hpp"

namespace perfzero::samplers {

class Monitor {
 public:
  // Starts sampling at once; the samplers must have been started and must outlive the monitor.
  Monitor(std::chrono::milliseconds interval, std::vector<Sampler*> samplers);
  ~Monitor();
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

  // Stops the thread (no sample after the stop: the samples describe the method, not its reaping)
  // and returns the CPU seconds the thread used.
  double stop();

 private:
  void run();
  void tick(double time);

  std::chrono::milliseconds interval_;
  std::vector<Sampler*> samplers_;
  std::vector<double> last_sampled_;  // per sampler, for min_period
  std::chrono::steady_clock::time_point start_;
  int wake_fd_;  // an eventfd stop() writes to
  double cpu_seconds_ = 0;
  bool stopped_ = false;
  std::thread thread_;
};

}  // namespace perfzero::samplers
