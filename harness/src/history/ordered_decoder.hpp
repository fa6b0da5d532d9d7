#pragma once
// A small pool that decodes stored run documents off the calling thread and hands the results back
// in the order they were given (history::Store::for_each_run, docs/performance.md).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "results/model.hpp"

namespace perfzero::history {

// Documents decoded on a few long-lived threads, handed back in the order they were given. One
// thread per document (std::async) cost a third of the run in the kernel: each new thread took a
// fresh malloc arena and its pages.
class OrderedDecoder {
 public:
  struct Restored {
    results::Run run;
    std::string problem;
  };
  using Job = std::function<Restored()>;

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
  Restored take() {
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
      Restored restored = job();
      lock.lock();
      done_.emplace(number, std::move(restored));
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<std::size_t, Job>> jobs_;
  std::map<std::size_t, Restored> done_;
  std::size_t given_ = 0;
  std::size_t taken_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace perfzero::history
