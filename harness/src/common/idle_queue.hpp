#pragma once
// One background thread that works through what is queued, a batch at a time, at SCHED_IDLE: the
// harness's work that must not take a core from the method being measured, done while a trial runs
// (a trial's syncs: common/sync_behind.hpp; its files: common/write_behind.hpp). A normal thread that
// wakes preempts it at once; where lowering its own policy fails (it needs no privilege), it runs as
// any thread.
#include <sched.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace perfzero::files {

template <typename Item>
class IdleQueue {
 public:
  // `work` is called on the background thread with each batch, in the order the items came; it
  // must not throw (each owner records what failed). With a `gather` time, while items come faster
  // than that (a batch taken within `gather` of the one before), the thread lingers that long after
  // each batch and takes what came meanwhile as the next batch, without being woken for each item:
  // a queue pushed to by every short trial then costs the pusher no system call and wakes the thread
  // once a `gather`, not once a trial. Items that come slower wake it each, as with no gather time
  // (it does not linger for nothing). An item then waits at most `gather` more to be taken.
  explicit IdleQueue(std::function<void(std::vector<Item>& batch)> work,
                     std::chrono::milliseconds gather = std::chrono::milliseconds(0))
      : work_(std::move(work)), gather_(gather), thread_([this] { loop(); }) {}
  // Works through what is still queued, then stops.
  ~IdleQueue() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  IdleQueue(const IdleQueue&) = delete;
  IdleQueue& operator=(const IdleQueue&) = delete;

  void push(Item item) {
    bool wake = false;
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(std::move(item));
      wake = asleep_;  // lingering, it takes the item when its gather time is over
    }
    if (wake) wake_.notify_one();
  }
  // Queues `items` in order, with one wake-up of the thread for all of them.
  void push_all(std::vector<Item> items) {
    if (items.empty()) return;
    bool wake = false;
    {
      std::lock_guard lock(mutex_);
      for (auto& item : items) queue_.push_back(std::move(item));
      wake = asleep_;
    }
    if (wake) wake_.notify_one();
  }
  // Returns once everything queued before the call is done (a lingering thread takes it at once).
  void wait_idle() {
    std::unique_lock lock(mutex_);
    ++waiting_;
    // Only a lingering thread is woken: one asleep for want of items has nothing to do, and waking it
    // for nothing cost every trial a system call here and a wake-up of the thread.
    if (!asleep_) wake_.notify_one();
    idle_.wait(lock, [&] { return queue_.empty() && !busy_; });
    --waiting_;
  }

 private:
  void loop() {
    const sched_param idle{};
    (void)::sched_setscheduler(0, SCHED_IDLE, &idle);
    std::vector<Item> batch;
    std::unique_lock lock(mutex_);
    for (;;) {
      asleep_ = true;
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      asleep_ = false;
      // A batch, then, while items keep coming within the gather time, the next ones.
      while (!queue_.empty()) {
        const auto taken = std::chrono::steady_clock::now();
        const bool coming_fast = taken - last_batch_ < gather_;
        last_batch_ = taken;
        batch.swap(queue_);
        busy_ = true;
        lock.unlock();
        work_(batch);
        batch.clear();
        lock.lock();
        busy_ = false;
        idle_.notify_all();
        if (coming_fast && !stopping_ && waiting_ == 0) {
          wake_.wait_for(lock, gather_, [&] { return stopping_ || waiting_ > 0; });
        }
      }
      if (stopping_) return;  // and nothing left
    }
  }

  std::function<void(std::vector<Item>&)> work_;
  const std::chrono::milliseconds gather_;
  std::chrono::steady_clock::time_point last_batch_;  // when the thread last took a batch
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::vector<Item> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  bool asleep_ = false;  // waiting for an item, not lingering: a push must wake it
  int waiting_ = 0;      // callers in wait_idle(): the thread does not linger for them
  std::thread thread_;   // last: started once everything it uses is made
};

}  // namespace perfzero::files
