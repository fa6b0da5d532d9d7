#pragma once
// A full device (/dev/full's major and minor) made in DIR, for tests of outputs that meet a full disk:
// a regression that renames over it then cannot replace the machine's /dev/full. Not root, or a
// temporary directory mounted nodev: the machine's own, where no rename can happen either.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>

namespace perfzero::testing {

inline std::filesystem::path own_full_device(const std::filesystem::path& dir) {
  const std::filesystem::path full = dir / "full";
  const bool made = ::mknod(full.c_str(), S_IFCHR | 0666, ::makedev(1, 7)) == 0;
  const int probe = made ? ::open(full.c_str(), O_WRONLY | O_CLOEXEC) : -1;
  if (probe < 0) return "/dev/full";
  ::close(probe);
  return full;
}

}  // namespace perfzero::testing
