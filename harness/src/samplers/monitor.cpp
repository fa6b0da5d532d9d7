#include "samplers/monitor.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>

namespace perfzero::samplers {

namespace {
double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}
}  // namespace

Monitor::Monitor(std::chrono::milliseconds interval, std::vector<Sampler*> samplers)
    : interval_(interval),
      samplers_(std::move(samplers)),
      last_sampled_(samplers_.size(), -1.0),
      start_(std::chrono::steady_clock::now()),
      wake_fd_(::eventfd(0, EFD_CLOEXEC)) {
  thread_ = std::thread([this] { run(); });
}

Monitor::~Monitor() {
  if (!stopped_) stop();
}

double Monitor::stop() {
  stopped_ = true;
  const std::uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof one);
  thread_.join();
  ::close(wake_fd_);
  return cpu_seconds_;
}

void Monitor::tick(double time) {
  for (std::size_t i = 0; i < samplers_.size(); ++i) {
    const double period = std::chrono::duration<double>(samplers_[i]->min_period()).count();
    if (last_sampled_[i] >= 0 && time - last_sampled_[i] < period && !samplers_[i]->wants_quick_resample()) continue;
    last_sampled_[i] = time;
    samplers_[i]->sample(time);
  }
}

void Monitor::run() {
  const double cpu_at_start = thread_cpu_seconds();
  // poll() on an eventfd sleeps and wakes in one system call each, which matters at 100 Hz: in a
  // VM every system call after a sleep costs ~10 us (docs/performance.md).
  pollfd wake{wake_fd_, POLLIN, 0};
  const auto timeout = static_cast<int>(interval_.count());
  while (true) {
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    tick(now);
    const bool early =
        now < std::chrono::duration<double>(interval_).count() &&
        std::any_of(samplers_.begin(), samplers_.end(), [](const Sampler* s) { return s->wants_quick_resample(); });
    const int ready = ::poll(&wake, 1, early ? 1 : timeout);
    if (ready > 0) break;  // stop(): the samples describe the method, not the harness reaping it
    if (ready < 0 && errno != EINTR) break;
  }
  cpu_seconds_ = thread_cpu_seconds() - cpu_at_start;
}

}  // namespace perfzero::samplers
