#pragma once
// The sample clock: one thread, kept for the whole run, that wakes every interval while a trial
// runs and lets each of the trial's samplers take a sample. Kept rather than made per trial: a
// thread's start, exit and join cost a short command's trial more than its samples do
// (docs/performance.md, issue 7).
#include <pthread.h>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "samplers/sampler.hpp"

namespace perfzero::samplers {

class SampleClock {
 public:
  SampleClock();  // an idle thread
  ~SampleClock();
  SampleClock(const SampleClock&) = delete;
  SampleClock& operator=(const SampleClock&) = delete;

  // The first sample's delay after begin(), which comes just before the harness asks for the method.
  // A sample sooner finds the method still in exec and loading its libraries (an RSS of 0), and
  // slows it: reading its /proc files then made a 1 ms /bin/true about 5 % slower here (the tick at
  // 1 ms, measured side by side, docs/performance-log.md). A method that ends sooner is described by
  // the kernel's accounting instead (its exact peak RSS and CPU: the process tree's kernel line).
  static constexpr std::chrono::milliseconds kFirstSampleAfter{5};

  // Starts sampling a trial (its first sample kFirstSampleAfter later, then every `interval`); the
  // samplers must have been started and must outlive end().
  void begin(std::chrono::milliseconds interval, std::vector<Sampler*> samplers);
  // Stops sampling (when it returns, no sample is being taken or will be: the samples describe the
  // method, not its reaping) and returns the CPU seconds the thread used from its first tick of the
  // trial (0 when it never ticked: it was asleep).
  double end();

  // Ends the sampling begun on a scope's exit, also when the scope is left by an exception: the
  // samplers belong to the scope and must not be sampled after it.
  class Session {
   public:
    Session(SampleClock& sample_clock, std::chrono::milliseconds interval, std::vector<Sampler*> samplers)
        : clock_(sample_clock) {
      clock_.begin(interval, std::move(samplers));
    }
    ~Session() {
      if (!ended_) clock_.end();
    }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    double end() {
      ended_ = true;
      return clock_.end();
    }

   private:
    SampleClock& clock_;
    bool ended_ = false;
  };

 private:
  void run();
  void tick(double time);
  double thread_cpu_seconds();
  void wake() const;
  void arm_first_tick(std::chrono::nanoseconds after) const;  // 0: stops the timer

  std::mutex mutex_;  // held while sampling, so end() waits for a sample in progress
  bool active_ = false;
  bool quit_ = false;
  bool ticked_since_begin_ = false;
  std::chrono::milliseconds interval_{100};
  std::vector<Sampler*> samplers_;
  std::vector<double> last_sampled_;  // per sampler, for min_period
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point next_tick_at_;  // when the next sample is due
  // The thread's CPU clock when its first tick of the trial began, read by the thread itself: a trial
  // that ends before its first tick used none of it, and neither end reads a clock for it.
  double cpu_at_first_tick_ = 0;
  int wake_fd_;        // an eventfd the destructor writes to
  int first_tick_fd_;  // a timerfd begin() sets for the first tick
  std::thread thread_;
};

}  // namespace perfzero::samplers
