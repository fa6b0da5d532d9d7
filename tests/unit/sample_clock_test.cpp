// The sample clock, one thread kept for a whole run: one trial's samplers are sampled between begin() and
// end() and never after, and the same thread serves the next trial.
#include "samplers/sample_clock.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::samplers::sample_clock_test {
namespace {

// Counts its samples; a sample after `closed` is set is a sample after end().
class CountingSampler : public Sampler {
 public:
  std::string name() const override { return "counting"; }
  void start(pid_t) override {}
  void sample(double time) override {
    if (closed) ++after_end;
    ++samples;
    last_time = time;
  }
  SamplerOutput finish(const TrialFacts&) override { return {}; }

  std::atomic<int> samples{0};
  std::atomic<int> after_end{0};
  std::atomic<bool> closed{false};
  std::atomic<double> last_time{-1};
};

TEST(SampleClock, SamplesOneTrialAtATimeAndNeverAfterItsEnd) {
  SampleClock sample_clock;
  for (int trial = 0; trial < 3; ++trial) {
    CountingSampler sampler;
    sample_clock.begin(std::chrono::milliseconds(5), {&sampler});
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    const double cpu = sample_clock.end();
    sampler.closed = true;
    // The clock thread's own CPU over its 60 ms: a dozen wake-ups take microseconds; a clock that
    // spun would take about all of it.
    EXPECT_GT(cpu, 0.0) << "trial " << trial;
    EXPECT_LT(cpu, 0.03) << "trial " << trial;
    // About 12 at 5 ms; what this test needs is that each trial is sampled, and sampled again on the
    // same thread, not a rate that a loaded machine may not keep.
    EXPECT_GE(sampler.samples.load(), 2) << "trial " << trial;
    // Each trial's clock starts at its begin().
    EXPECT_LT(sampler.last_time.load(), 1.0) << "trial " << trial;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // several intervals after the end
    EXPECT_EQ(sampler.after_end.load(), 0) << "trial " << trial;
  }
}

// The first sample comes a moment after begin() (the method's process is starting), not an
// interval later.
TEST(SampleClock, TakesTheFirstSampleAMomentAfterBeginEvenWithALongInterval) {
  SampleClock sample_clock;
  CountingSampler sampler;
  sample_clock.begin(std::chrono::milliseconds(10'000), {&sampler});
  for (int i = 0; i < 200 && sampler.samples == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  sample_clock.end();
  EXPECT_EQ(sampler.samples.load(), 1);
  const double first = std::chrono::duration<double>(SampleClock::kFirstSampleAfter).count();
  EXPECT_GE(sampler.last_time.load(), first);
  EXPECT_LT(sampler.last_time.load(), 1.0);
}

// A trial over before the first tick used none of the thread's CPU, and is given none (no clock is
// read for it: the thread reads its own when it first ticks).
TEST(SampleClock, ATrialEndedBeforeItsFirstTickUsedNoneOfTheThreadsCpu) {
  SampleClock sample_clock;
  for (int trial = 0; trial < 20; ++trial) {
    CountingSampler sampler;
    sample_clock.begin(std::chrono::milliseconds(5), {&sampler});
    const double cpu = sample_clock.end();
    // A loaded machine may hold this thread past the first tick between the two calls.
    if (sampler.samples.load() == 0) {
      EXPECT_EQ(cpu, 0.0) << "trial " << trial;
    }
  }
  // Its timer is left armed: when it fires after the end, nothing is sampled.
  CountingSampler last;
  sample_clock.begin(std::chrono::milliseconds(5), {&last});
  sample_clock.end();
  last.closed = true;
  std::this_thread::sleep_for(3 * SampleClock::kFirstSampleAfter);
  EXPECT_EQ(last.after_end.load(), 0);
}

TEST(SampleClock, ASessionLeftByAnExceptionStopsSampling) {
  SampleClock sample_clock;
  CountingSampler sampler;
  try {
    SampleClock::Session sampling(sample_clock, std::chrono::milliseconds(2), {&sampler});
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    throw std::runtime_error("the trial failed");
  } catch (const std::runtime_error&) {
  }
  sampler.closed = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GT(sampler.samples.load(), 0);
  EXPECT_EQ(sampler.after_end.load(), 0);
}

TEST(SampleClock, AnIdleSampleClockIsDestroyedAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  { SampleClock sample_clock; }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace perfzero::samplers::sample_clock_test
