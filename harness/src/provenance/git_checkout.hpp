#pragma once
// The git checkout a run was started in, read from its files (HEAD, refs, packed-refs) rather than by
// running git: no git program is needed in an image, it costs no process start before the first
// trial, and a repository owned by another user (a mounted volume) is read without git's
// safe.directory refusal.
#include <filesystem>
#include <optional>
#include <string>

namespace perfzero::provenance {

struct GitCheckout {
  std::filesystem::path top;  // the directory holding .git
  std::string commit;         // HEAD's commit; empty in a repository with no commit yet
  std::string branch;         // the checked-out branch; empty when HEAD is detached
};

// The checkout holding `start` (it or a parent has .git: a directory, or a file naming the git
// directory, as a worktree or a submodule has). nullopt when there is none or it cannot be read.
// Only regular files of bounded size are read, so a FIFO or a device in .git cannot block or flood it.
std::optional<GitCheckout> find_git_checkout(const std::filesystem::path& start);

}  // namespace perfzero::provenance
