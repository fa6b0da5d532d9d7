#include "common/standard_streams.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace perfzero::standard_streams {

namespace {

bool is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1 || errno != EBADF; }

// Read-only /dev/null at `fd`: it holds the number; a write to it fails with EBADF. Inherited, so a
// program the harness starts with its descriptors finds the same.
void hold(int fd) {
  const int null = ::open("/dev/null", O_RDONLY);
  if (null < 0 || null == fd) return;
  ::dup2(null, fd);
  ::close(null);
}

// stderr's writes: everything is taken, whatever descriptor 2 says (a short write is finished,
// an error drops the rest).
ssize_t write_dropping(void* /*cookie*/, const char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(STDERR_FILENO, data + done, size - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  return static_cast<ssize_t>(size);
}

}  // namespace

void make_safe() {
  // In order: a closed 0 would otherwise be taken by the /dev/null meant for 1.
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (!is_open(fd)) hold(fd);
  }
  static const cookie_io_functions_t dropping{nullptr, write_dropping, nullptr, nullptr};
  if (FILE* err = ::fopencookie(nullptr, "w", dropping)) {
    std::setvbuf(err, nullptr, _IONBF, 0);
    stderr = err;
  }
}

}  // namespace perfzero::standard_streams
