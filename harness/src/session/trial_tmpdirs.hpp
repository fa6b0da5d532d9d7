#pragma once
// Every trial gets its own TMPDIR, <trial>/tmp (session/child_command.cpp). Making one and removing it
// per trial costs a short command's trial about 0.15 ms on ext4 (two inode operations; issue 7's
// goal is a per-trial cost within 2x of hyperfine's). So an empty TMPDIR that its trial left as it
// was made moves on to the next trial instead: one rename. "As it was made": a real directory of
// this user and group, with the mode mkdir gave it and the inode flags it was made with (no chattr
// +S, +A, +i, casefolding or encryption added), no subdirectory, no entry, no extended attribute
// (so no ACL), checked once the trial's processes are gone. A process outside the trial's tree that
// still holds the directory (a container started with it as a volume) is beyond this check.
// A trial can then do nothing to its TMPDIR that the next one could notice; a TMPDIR that fails the
// check is removed when empty and left to be looked at when not, as before. On a file system in
// memory the check costs more than it saves: there each trial gets a new TMPDIR, removed when empty.
#include <sys/types.h>

#include <filesystem>
#include <optional>

namespace perfzero::session {

class TrialTmpDirs {
 public:
  // `move_on` false: every trial gets a new TMPDIR and an empty one is removed (rmdir), for a file
  // system in memory (in_memory_file_system), where mkdir and rmdir take microseconds and the
  // as-made check above seven system calls.
  explicit TrialTmpDirs(bool move_on = true) : move_on_(move_on) {}
  ~TrialTmpDirs();  // removes the one kept
  TrialTmpDirs(const TrialTmpDirs&) = delete;
  TrialTmpDirs& operator=(const TrialTmpDirs&) = delete;

  // Gives `trial_dir` its tmp/ (which must not exist): the kept one moved there, or a new one.
  // Throws OutputError when none can be made.
  void make(const std::filesystem::path& trial_dir);
  // After the trial, its processes gone: true when trial_dir/tmp was left empty, kept for the next
  // trial when it is as it was made (or removed, without `move_on`); otherwise removes it when empty
  // and leaves it when not.
  bool done(const std::filesystem::path& trial_dir);
  // Removes the kept one now (the run's end).
  void release();

  // What a new directory is made with here: the mode under this process's umask, and the inode
  // flags it inherits (nothing when the file system has none).
  struct MadeAs {
    mode_t mode = 0;
    std::optional<long> flags;
    uid_t uid = 0;  // the harness's, as the first one was made (its parent's group where that is setgid)
    gid_t gid = 0;
  };

 private:
  bool move_on_;
  std::optional<std::filesystem::path> kept_;
  std::optional<MadeAs> made_as_;  // read from the first one made
};

// True where `dir` is on a file system in memory (tmpfs, ramfs), where making and removing a
// directory costs little.
bool in_memory_file_system(const std::filesystem::path& dir);

// True when `dir` is an empty real directory of this user, made as `made_as` says, with no extended
// attribute (the check above; a test's seam).
bool is_untouched_empty_dir(const std::filesystem::path& dir, const TrialTmpDirs::MadeAs& made_as);

}  // namespace perfzero::session
