#pragma once
// One background thread that works through what is queued, a batch at a time, at SCHED_IDLE: the
// harness's work that must not take a core from the method being measured, done while a trial runs
// (a trial's syncs: common/sync_behind.hpp; its files: common/write_behind.hpp). A normal thread that
// wakes preempts it at once; where lowering its own policy fails (it needs no privilege), it runs as
// any thread.
#include <sched.h>

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
  // must not throw (each owner records what failed).
  explicit IdleQueue(std::function<void(std::vector<Item>& batch)> work)
      : work_(std::move(work)), thread_([this] { loop(); }) {}
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
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(std::move(item));
    }
    wake_.notify_one();
  }
  // Returns once everything queued before the call is done.
  void wait_idle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return queue_.empty() && !busy_; });
  }

 private:
  void loop() {
    const sched_param idle{};
    (void)::sched_setscheduler(0, SCHED_IDLE, &idle);
    std::vector<Item> batch;
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left
      batch.swap(queue_);
      busy_ = true;
      lock.unlock();
      work_(batch);
      batch.clear();
      lock.lock();
      busy_ = false;
      idle_.notify_all();
    }
  }

  std::function<void(std::vector<Item>&)> work_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::vector<Item> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::thread thread_;  // last: started once everything it uses is made
};

}  // namespace perfzero::files
