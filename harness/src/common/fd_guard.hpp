#pragma once
// Closes a file descriptor when it goes out of scope, so no early return or exception leaks it.
#include <unistd.h>

namespace perfzero {

struct FdGuard {
  explicit FdGuard(int descriptor) : fd(descriptor) {}
  FdGuard(const FdGuard&) = delete;
  FdGuard& operator=(const FdGuard&) = delete;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }

  int fd;
};

}  // namespace perfzero
