#pragma once
// A small pool that runs jobs off the calling thread and hands their results back in the order the
// jobs were given: stored run documents decoded while the caller writes pages
// (history::Store::for_each_run, docs/performance.md).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace perfzero::history {

// Long-lived threads, not one per job: one thread per document (std::async) cost a third of the
// site's time in the kernel, each new thread taking a fresh malloc arena and its pages. A job must
// not throw (its result says what went wrong).
template <typename Result>
class OrderedDecoder {
 public:
  using Job = std::function<Result()>;

  explicit OrderedDecoder(std::size_t threads) {
    try {
      for (std::size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
    } catch (...) {  // a thread that could not start: those that did are stopped, not left joinable
      stop();
      throw;
    }
  }
  OrderedDecoder(const OrderedDecoder&) = delete;
  OrderedDecoder& operator=(const OrderedDecoder&) = delete;
  ~OrderedDecoder() { stop(); }

  void give(Job job) {
    std::lock_guard lock(mutex_);
    jobs_.emplace_back(given_++, std::move(job));
    changed_.notify_all();
  }
  std::size_t pending() const { return given_ - taken_; }
  // The oldest job's result, once it is there.
  Result take() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return done_.count(taken_) > 0; });
    auto node = done_.extract(taken_++);
    return std::move(node.mapped());
  }

 private:
  void stop() noexcept {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      jobs_.clear();
    }
    changed_.notify_all();
    for (auto& w : workers_) w.join();
  }
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      auto [number, job] = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      Result result = job();
      lock.lock();
      done_.emplace(number, std::move(result));
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<std::size_t, Job>> jobs_;
  std::map<std::size_t, Result> done_;
  std::size_t given_ = 0;
  std::size_t taken_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace perfzero::history
