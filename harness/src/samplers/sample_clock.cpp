#include "samplers/sample_clock.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <system_error>

namespace perfzero::samplers {

SampleClock::SampleClock()
    : wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      first_tick_fd_(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)) {
  // Without them the thread could never be told to stop, or to start sampling.
  if (wake_fd_ < 0) throw std::system_error(errno, std::generic_category(), "the monitor's eventfd");
  if (first_tick_fd_ < 0) {
    const int error = errno;
    ::close(wake_fd_);
    throw std::system_error(error, std::generic_category(), "the monitor's timerfd");
  }
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
  ::close(first_tick_fd_);
}

void SampleClock::arm_first_tick(std::chrono::nanoseconds after) const {
  itimerspec when{};
  when.it_value.tv_sec = static_cast<time_t>(after.count() / 1'000'000'000);
  when.it_value.tv_nsec = static_cast<long>(after.count() % 1'000'000'000);
  (void)::timerfd_settime(first_tick_fd_, 0, &when, nullptr);
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
    next_tick_at_ = start_ + kFirstSampleAfter;
    active_ = true;
    ticked_since_begin_ = false;
  }
  // Not a wake-up now but a timer for the first tick: the thread sleeps through a trial shorter
  // than that, and takes no CPU while the launcher starts the method.
  arm_first_tick(kFirstSampleAfter);
}

double SampleClock::end() {
  const std::lock_guard lock(mutex_);
  active_ = false;
  samplers_.clear();
  // A trial that ended before its first tick leaves the timer armed: when the next begin() comes
  // sooner, it sets it again (and clears what it counted); when it fires first (a trial that ended
  // just before its first tick, a pause before the next trial, the run's end), the thread finds
  // nothing to sample and waits for the next begin(), as after a tick. Stopping it cost every short
  // trial a system call. No need to wake the thread now either: that would cost the trial a wake-up.
  if (!ticked_since_begin_) return 0;
  return std::max(0.0, thread_cpu_seconds() - cpu_at_first_tick_);
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
  // poll() on an eventfd and a timerfd sleeps and wakes in one system call each, which matters at
  // 100 Hz: in a VM every system call after a sleep costs ~10 us (docs/performance.md).
  pollfd fds[2] = {{wake_fd_, POLLIN, 0}, {first_tick_fd_, POLLIN, 0}};
  std::unique_lock lock(mutex_);
  while (!quit_) {
    int timeout = -1;  // idle: until begin()'s timer or the destructor
    if (active_) {
      // A tick only when one is due: a wake-up that is not (the first tick's timer, read after a
      // poll that timed out at the same moment) just waits again.
      const auto now = std::chrono::steady_clock::now();
      if (now >= next_tick_at_) {
        if (!ticked_since_begin_) cpu_at_first_tick_ = thread_cpu_seconds();
        ticked_since_begin_ = true;
        const double time = std::chrono::duration<double>(now - start_).count();
        tick(time);
        const bool early =
            time < std::chrono::duration<double>(interval_).count() &&
            std::any_of(samplers_.begin(), samplers_.end(), [](const Sampler* s) { return s->wants_quick_resample(); });
        next_tick_at_ = now + (early ? std::chrono::milliseconds(1) : interval_);
      }
      timeout = static_cast<int>(
          std::max<std::int64_t>(0, std::chrono::ceil<std::chrono::milliseconds>(next_tick_at_ - now).count()));
    }
    lock.unlock();
    const int ready = ::poll(fds, 2, timeout);
    if (ready > 0) {
      std::uint64_t count = 0;
      if (fds[0].revents != 0) (void)!::read(wake_fd_, &count, sizeof count);
      if (fds[1].revents != 0) (void)!::read(first_tick_fd_, &count, sizeof count);
    } else if (ready < 0 && errno != EINTR) {
      lock.lock();
      break;  // cannot sleep: sampling stops rather than spinning
    }
    lock.lock();
  }
}

}  // namespace perfzero::samplers
