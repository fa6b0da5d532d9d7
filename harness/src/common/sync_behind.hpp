#pragma once
// Durability off the trial's critical path. A finished trial's journal line (the run's record; the
// reports are written again from it by --resume) must survive a kernel crash, but an fsync costs
// milliseconds on a cloud disk, several times what a short command's whole trial costs
// (docs/performance.md). So the line is queued here and one background thread, at SCHED_IDLE so that
// it never takes a core from the method being measured, syncs it while the next trial runs: a group
// commit, as databases do: while trials end faster than kGatherTime apart, what is queued within
// kGatherTime of a sync goes into the next one, and a trial that queues its line wakes nobody (a
// system call and a thread's wake-up a trial fewer); a longer trial's line wakes the thread. A
// kill -9 of the harness still loses nothing written (the page cache outlives the process); a power
// loss loses at most what finished in the last kGatherTime or during the sync in progress, a few
// milliseconds of trials (docs/reliability.md).
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/idle_queue.hpp"

namespace perfzero::files {

class SyncBehind {
 public:
  static constexpr std::chrono::milliseconds kGatherTime{5};

  SyncBehind();
  // Destroyed, it syncs what is still queued; a failure then is dropped (flush() is where a run hears
  // of one).
  SyncBehind(const SyncBehind&) = delete;
  SyncBehind& operator=(const SyncBehind&) = delete;

  // A file just renamed into place: fsync of the file, then of its directory (the rename).
  void file(const std::filesystem::path& path);
  // An open descriptor (the journal), fdatasync'd; it must stay open until flush() returns.
  void descriptor(int fd, const std::filesystem::path& name);
  // Syncs everything queued so far, now, in this thread's wait; throws OutputError naming the file
  // for the first failure since the last flush (in the background or here).
  void flush();
  // The first background failure not yet reported, e.g. "cannot write F to disk: EIO".
  std::optional<std::string> failure();

 private:
  struct Item {
    int fd = -1;  // -1: open `path` to sync it
    std::filesystem::path path;
  };
  void sync_batch(std::vector<Item>& batch);

  std::mutex failure_mutex_;
  std::optional<std::string> failure_;
  IdleQueue<Item> queue_;  // last: its thread writes into what is above
};

// The harness's one queue: the journal and the trial reports share it, so one batch covers both.
SyncBehind& sync_behind();

}  // namespace perfzero::files
