#include "common/write_behind.hpp"

#include <sched.h>

#include <exception>
#include <system_error>

#include "common/files.hpp"

namespace perfzero::files {

WriteBehind::WriteBehind() : thread_([this] { loop(); }) {}

WriteBehind::~WriteBehind() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void WriteBehind::write(std::filesystem::path path, std::function<std::string()> text) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(path), std::move(text)});
  }
  wake_.notify_one();
}

std::vector<WriteBehind::Failure> WriteBehind::wait() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return queue_.empty() && !busy_; });
  std::vector<Failure> out;
  out.swap(failures_);
  return out;
}

void WriteBehind::loop() {
  // Lowering a thread's own policy needs no privilege; where it fails, the writes run as before.
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
    std::vector<Failure> failed;
    for (auto& item : batch) {
      try {
        write_atomically(item.path, item.text());
      } catch (const std::system_error& e) {
        failed.push_back({e.what(), true});
      } catch (const std::exception& e) {
        failed.push_back({e.what(), false});
      }
    }
    batch.clear();
    lock.lock();
    failures_.insert(failures_.end(), failed.begin(), failed.end());
    busy_ = false;
    idle_.notify_all();
  }
}

}  // namespace perfzero::files
