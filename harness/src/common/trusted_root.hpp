#pragma once
// A directory the harness made and writes into (a run's output directory), which the methods it runs
// can also reach ($PERFZERO_RUN_DIR). While one is registered, every files::write_atomically under it
// goes through a descriptor of the directory opened when it was registered: the path below it is
// resolved by the kernel with no symbolic link allowed (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS),
// so a method that puts a link where a trial directory was cannot make the harness write outside the
// run. Where the kernel has no openat2 (before Linux 5.6), writes go by path as before.
#include <filesystem>
#include <optional>

namespace perfzero::files {

class TrustedRoot {
 public:
  // Opens `dir` (which must be a real directory, not a link) and registers it. Throws
  // std::system_error naming it when it cannot be opened.
  explicit TrustedRoot(const std::filesystem::path& dir);
  ~TrustedRoot();
  TrustedRoot(const TrustedRoot&) = delete;
  TrustedRoot& operator=(const TrustedRoot&) = delete;

 private:
  std::filesystem::path dir_;
  int fd_ = -1;
};

// For write_atomically: a descriptor of `path`'s directory when `path` lies under a registered root,
// resolved with no link followed (the caller closes it); nullopt when under no root (or without
// openat2). Throws std::system_error naming the path when a link or a missing directory is in the way.
std::optional<int> open_parent_beneath_root(const std::filesystem::path& path);

}  // namespace perfzero::files
