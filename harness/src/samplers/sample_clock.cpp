#include "samplers/sample_clock.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <system_error>

namespace perfzero::samplers {

SampleClock::SampleClock() : wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  // Without it the thread could never be told to stop.
  if (wake_fd_ < 0) throw std::system_error(errno, std::generic_category(), "the monitor's eventfd");
  thread_ = std::thread([this] { run(); });
}

SampleClock::~SampleClock() {
  {
    const std::lock_guard lock(mutex_);
    quit_ = true;
    active_ = false;
  }
  wake();
  thread_.join();
  ::close(wake_fd_);
}

void SampleClock::wake() const {
  const std::uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof one);
}

double SampleClock::thread_cpu_seconds() {
  clockid_t clock{};
  timespec ts{};
  if (::pthread_getcpuclockid(thread_.native_handle(), &clock) != 0 || ::clock_gettime(clock, &ts) != 0) {
    return 0;
  }
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

void SampleClock::begin(std::chrono::milliseconds interval, std::vector<Sampler*> samplers) {
  {
    const std::lock_guard lock(mutex_);
    interval_ = interval;
    samplers_ = std::move(samplers);
    last_sampled_.assign(samplers_.size(), -1.0);
    start_ = std::chrono::steady_clock::now();
    cpu_at_begin_ = thread_cpu_seconds();
    active_ = true;
    sampled_since_begin_ = false;
  }
  wake();
}

double SampleClock::end() {
  const std::lock_guard lock(mutex_);
  active_ = false;
  samplers_.clear();
  // The thread may be asleep until its next tick; it then finds nothing to sample and waits for
  // the next begin(). No need to wake it now: that would cost the trial a thread wake-up.
  return std::max(0.0, thread_cpu_seconds() - cpu_at_begin_);
}

void SampleClock::tick(double time) {
  for (std::size_t i = 0; i < samplers_.size(); ++i) {
    const double period = std::chrono::duration<double>(samplers_[i]->min_period()).count();
    if (last_sampled_[i] >= 0 && time - last_sampled_[i] < period && !samplers_[i]->wants_quick_resample()) continue;
    last_sampled_[i] = time;
    samplers_[i]->sample(time);
  }
}

void SampleClock::run() {
  // poll() on an eventfd sleeps and wakes in one system call each, which matters at 100 Hz: in a
  // VM every system call after a sleep costs ~10 us (docs/performance.md).
  pollfd wake{wake_fd_, POLLIN, 0};
  std::unique_lock lock(mutex_);
  while (!quit_) {
    int timeout = -1;  // idle: until begin() or the destructor
    if (active_) {
      if (!sampled_since_begin_) {
        // begin()'s wake-up, when it came before this thread slept: drained, or the poll below
        // would return at once and take a second first sample.
        std::uint64_t count = 0;
        (void)!::read(wake_fd_, &count, sizeof count);
        sampled_since_begin_ = true;
      }
      const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      tick(now);
      const bool early =
          now < std::chrono::duration<double>(interval_).count() &&
          std::any_of(samplers_.begin(), samplers_.end(), [](const Sampler* s) { return s->wants_quick_resample(); });
      timeout = early ? 1 : static_cast<int>(interval_.count());
    }
    lock.unlock();
    const int ready = ::poll(&wake, 1, timeout);
    if (ready > 0) {
      std::uint64_t count = 0;
      (void)!::read(wake_fd_, &count, sizeof count);
    } else if (ready < 0 && errno != EINTR) {
      lock.lock();
      break;  // cannot sleep: sampling stops rather than spinning
    }
    lock.lock();
  }
}

}  // namespace perfzero::samplers
