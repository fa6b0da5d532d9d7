#pragma once
// Makes the next trial's directory, with its TMPDIR and its empty perfzero.log, on a helper thread
// while the harness thread writes the previous trial's reports. Both are harness work between two
// trials (never while a method runs, which it would disturb); on a 2-core machine they overlap, and
// a short command's trial is spared about a third of its file-system time (docs/performance.md,
// issue 7: creating an inode is the costliest step of a trial on ext4).
//
// Only a directory that does not exist yet is made ahead: one from before (a resumed run) still
// goes through the harness thread's cleanup of an earlier attempt. Whatever fails here is left to
// the harness thread, which does the same step again and reports its error.
//
// Not on a file system in memory (tmpfs, ramfs): there making the directory costs a few system calls
// of microseconds, less than handing it to another thread and waking it (0.05 ms a trial in this VM,
// docs/performance-log.md); the harness thread makes it itself.
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "session/trial_tmpdirs.hpp"

namespace perfzero::session {

// False where the trials' directories go to a file system in memory.
bool worth_making_ahead(const std::filesystem::path& run_dir);

class TrialDirAhead {
 public:
  // `tmp_dirs` makes each TMPDIR; the caller must not use it while a preparation is under way
  // (between prepare() and the next take() or discard()). Without `make_ahead` (worth_making_ahead()
  // is false), prepare() does nothing and take() is always false: no helper thread runs.
  TrialDirAhead(TrialTmpDirs& tmp_dirs, bool make_ahead);
  ~TrialDirAhead();  // discards an untaken directory
  TrialDirAhead(const TrialDirAhead&) = delete;
  TrialDirAhead& operator=(const TrialDirAhead&) = delete;

  bool makes_ahead() const { return thread_.joinable(); }
  // Starts making `trial_dir` (and trial_dir/tmp, trial_dir/`log_name`) on the helper thread.
  void prepare(const std::filesystem::path& trial_dir, const std::filesystem::path& log_name);
  // Waits for the preparation; true when it made `trial_dir` new and whole. False for another
  // directory, none prepared, or a step that failed (what it made is then left to the caller).
  bool take(const std::filesystem::path& trial_dir);
  // Waits, and removes what a preparation made that no trial took (the run stopped before it).
  void discard();

 private:
  void run();
  bool make();  // true when it made the job's directory whole
  void wait(std::unique_lock<std::mutex>& lock);

  TrialTmpDirs& tmp_dirs_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<std::filesystem::path> job_;  // the directory to make, while queued or under way
  std::filesystem::path log_name_;
  bool busy_ = false;
  bool made_parent_ = false;                    // the last job also made its parent (a new case's directory)
  std::optional<std::filesystem::path> ready_;  // made whole, not yet taken
  bool quit_ = false;
  std::thread thread_;
};

}  // namespace perfzero::session
