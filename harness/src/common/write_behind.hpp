#pragma once
// A finished trial's own files (its PerfZero report, process_info.log, the samplers' series) written
// while the next trial runs, off the trial's critical path. The journal line, written before the next
// trial starts, is the trial's record; these files are derived from it (and from the samples), and
// --resume writes a lost report again from the journal. Writing them in line cost a `/bin/true` trial
// about a third of the harness's own time per trial (docs/performance.md).
//
// One background thread at SCHED_IDLE (common/idle_queue.hpp), so it takes no core a method being
// measured wants. The queue holds one trial's files at a time: the recorder
// waits for them at the next trial's end (when the method is gone, so the thread has a core), before
// it queues that trial's.
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/idle_queue.hpp"

namespace perfzero::files {

class WriteBehind {
 public:
  // What went wrong with a queued write: `refused` when the file system refused it (a
  // std::system_error: a full disk, a link in the path), else a bug or a bad value in the file.
  struct Failure {
    std::string what;
    bool refused = false;
  };

  WriteBehind();
  // Destroyed, it writes what is still queued or held, then stops; failures then are dropped.
  ~WriteBehind() { send(); }
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // Queues an atomic write (write_atomically) of what `text` makes: the text is made on the
  // background thread, so the caller hands over what it needs by value.
  void write(std::filesystem::path path, std::function<std::string()> text);
  // From hold() to send(), writes are gathered and queued together: a trial's files wake the thread
  // once, not once a file (each wake-up a system call on the trial's critical path).
  void hold() { holding_ = true; }
  void send();
  // Waits until every queued write is done (what is held is sent first); returns what failed since
  // the last wait, in order.
  std::vector<Failure> wait();

 private:
  struct Item {
    std::filesystem::path path;
    std::function<std::string()> text;
  };
  void write_batch(std::vector<Item>& batch);

  bool holding_ = false;
  std::vector<Item> held_;
  std::mutex failures_mutex_;
  std::vector<Failure> failures_;
  IdleQueue<Item> queue_;  // last: its thread writes into what is above
};

}  // namespace perfzero::files
