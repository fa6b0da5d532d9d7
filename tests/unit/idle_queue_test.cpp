// common/idle_queue: the background thread that takes the harness's deferred work a batch at a time,
// and, with a gather time, takes what came while it lingered without being woken for each item.
#include "common/idle_queue.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::files::idle_queue_test {
namespace {

using namespace std::chrono_literals;

struct Seen {
  std::mutex mutex;
  std::vector<std::vector<int>> batches;
  std::vector<std::vector<int>> copy() {
    std::lock_guard lock(mutex);
    return batches;
  }
};

TEST(IdleQueue, WithoutAGatherTimeEachItemIsTakenAtOnce) {
  Seen seen;
  IdleQueue<int> queue([&](std::vector<int>& batch) {
    std::lock_guard lock(seen.mutex);
    seen.batches.push_back(batch);
  });
  for (int i = 0; i < 3; ++i) {
    queue.push(i);
    queue.wait_idle();
  }
  const auto batches = seen.copy();
  ASSERT_EQ(batches.size(), 3U);
  EXPECT_EQ(batches[2], std::vector<int>{2});
}

// Items that come faster than the gather time: after a batch taken within the gather time of the one
// before, the thread lingers, and what is pushed meanwhile is taken together, within the gather
// time, with no wait_idle() and no wake-up per item.
TEST(IdleQueue, ItemsPushedWhileItLingersAreTakenTogetherWithinTheGatherTime) {
  Seen seen;
  IdleQueue<int> queue(
      [&](std::vector<int>& batch) {
        std::lock_guard lock(seen.mutex);
        seen.batches.push_back(batch);
      },
      2s);
  const auto taken = [&](std::size_t batches) {
    for (int i = 0; i < 1000 && seen.copy().size() < batches; ++i) std::this_thread::sleep_for(5ms);
    return seen.copy().size();
  };
  queue.push(1);
  ASSERT_EQ(taken(1), 1U) << "the first item wakes the thread";
  queue.push(2);
  ASSERT_EQ(taken(2), 2U) << "and the next, the thread not lingering after a first batch";
  queue.push(3);  // the second batch came within the gather time of the first: it lingers now
  queue.push(4);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(seen.copy().size(), 2U) << "taken before the gather time was over";
  ASSERT_EQ(taken(3), 3U);
  EXPECT_EQ(seen.copy()[2], (std::vector<int>{3, 4}));
}

// wait_idle() does not wait out the gather time: a lingering thread takes what is queued at once.
TEST(IdleQueue, WaitIdleTakesWhatIsQueuedAtOnceWithoutWaitingOutTheGatherTime) {
  std::atomic<int> done{0};
  IdleQueue<int> queue([&](std::vector<int>& batch) { done += static_cast<int>(batch.size()); }, 10s);
  queue.push(1);
  queue.push(2);
  auto waited = std::async(std::launch::async, [&] { queue.wait_idle(); });
  ASSERT_EQ(waited.wait_for(5s), std::future_status::ready) << "wait_idle waited for the gather time";
  EXPECT_EQ(done.load(), 2);
  queue.push(3);  // and after it, the queue gathers again; its destructor takes what is left
}

TEST(IdleQueue, ItsDestructorTakesWhatIsLeftAtOnce) {
  std::atomic<int> done{0};
  const auto start = std::chrono::steady_clock::now();
  {
    IdleQueue<int> queue([&](std::vector<int>& batch) { done += static_cast<int>(batch.size()); }, 10s);
    queue.push(1);
    queue.push(2);
    queue.push(3);
  }
  EXPECT_EQ(done.load(), 3);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

}  // namespace
}  // namespace perfzero::files::idle_queue_test
