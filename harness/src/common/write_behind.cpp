#include "common/write_behind.hpp"

#include <exception>
#include <system_error>
#include <utility>

#include "common/files.hpp"

namespace perfzero::files {

WriteBehind::WriteBehind() : queue_([this](std::vector<Item>& batch) { write_batch(batch); }) {}

void WriteBehind::write(std::filesystem::path path, std::function<std::string()> text) {
  if (holding_) {
    held_.push_back({std::move(path), std::move(text)});
  } else {
    queue_.push({std::move(path), std::move(text)});
  }
}

void WriteBehind::send() {
  holding_ = false;
  queue_.push_all(std::exchange(held_, {}));
}

std::vector<WriteBehind::Failure> WriteBehind::wait() {
  send();
  queue_.wait_idle();
  std::lock_guard lock(failures_mutex_);
  std::vector<Failure> out;
  out.swap(failures_);
  return out;
}

void WriteBehind::write_batch(std::vector<Item>& batch) {
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
  std::lock_guard lock(failures_mutex_);
  failures_.insert(failures_.end(), failed.begin(), failed.end());
}

}  // namespace perfzero::files
