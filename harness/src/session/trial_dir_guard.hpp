#pragma once
// A trial's directory as the harness made it. The method runs with $PERFZERO_TRIAL_DIR and may remove
// that directory, or put a symbolic link, a file or another directory in its place; the harness then
// neither follows nor trusts what is there: the trial fails saying what the method did, and a fresh
// directory takes the old one's place for the trial's reports (docs/reliability.md).
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>

namespace perfzero::session {

struct DirIdentity {
  dev_t device = 0;
  ino_t inode = 0;
};

// The identity of `dir` when it is a real directory (not a link to one); nullopt otherwise.
std::optional<DirIdentity> real_directory(const std::filesystem::path& dir);

// What happened to the trial directory `dir` (made as `made`, below `run_dir`), in words ("removed its
// trial directory", "replaced its trial directory with a symbolic link to /etc", "replaced the
// directory of its method ... with a symbolic link"); empty when it is still that directory, reached
// through real directories only.
std::string damage_to(const std::filesystem::path& run_dir, const std::filesystem::path& dir, const DirIdentity& made);

// What stands in the way of `dir` being a real directory reached through real directories from
// `run_dir` ("replaced its trial directory with a symbolic link to /"); empty when nothing does (a
// missing trial directory is "removed its trial directory").
std::string not_a_real_directory(const std::filesystem::path& run_dir, const std::filesystem::path& dir);

// The usual case, every directory above `dir` real and `dir` not there yet: makes it with one mkdir
// (true), after an lstat of each directory above. False, having made nothing, when anything above is
// missing or not a real directory, or something is where `dir` goes.
bool make_fresh_trial_dir(const std::filesystem::path& run_dir, const std::filesystem::path& dir);

// Makes every directory from below `run_dir` down to `dir` a real directory again, and `dir` a fresh
// one: a link is removed (never followed), a file or another directory in the trial directory's place
// is moved aside as <dir>.replaced.N to be looked at. Throws OutputError naming the path when it cannot.
void restore_trial_dir(const std::filesystem::path& run_dir, const std::filesystem::path& dir);

}  // namespace perfzero::session
