#pragma once
// A finished trial's own files (its PerfZero report, process_info.log, the samplers' series) written
// while the next trial runs, off the trial's critical path. The journal line, written before the next
// trial starts, is the trial's record; these files are derived from it (and from the samples), and
// --resume writes a lost report again from the journal. Writing them in line cost a `/bin/true` trial
// about a third of the harness's own time per trial (docs/performance.md).
//
// One background thread at SCHED_IDLE, so it takes no core a method being measured wants: a normal
// thread that wakes preempts it at once. The queue holds one trial's files at a time: the recorder
// waits for them at the next trial's end (when the method is gone, so the thread has a core), before
// it queues that trial's.
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

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
  // Writes what is still queued, then stops; failures then are dropped (wait() reports them).
  ~WriteBehind();
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // Queues an atomic write (write_atomically) of what `text` makes: the text is made on the
  // background thread, so the caller hands over what it needs by value.
  void write(std::filesystem::path path, std::function<std::string()> text);
  // Waits until every queued write is done; returns what failed since the last wait, in order.
  std::vector<Failure> wait();

 private:
  struct Item {
    std::filesystem::path path;
    std::function<std::string()> text;
  };
  void loop();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::vector<Item> queue_;
  std::vector<Failure> failures_;
  bool busy_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace perfzero::files
