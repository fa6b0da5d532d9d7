/* An LD_PRELOAD shim over the syncs the harness makes (fdatasync, fsync, syncfs) that can make the
   file system refuse them with EIO, as a failing disk does, and tells a test which were made. Each
   part acts only when its variable is set:
   - PERFZERO_SYNC_LOG=FILE: every call appends "CALL PATH ok" or "CALL PATH failed" to FILE (PATH: what
     the descriptor names), so a test sees which syncs were made, in which order, and when one failed;
   - PERFZERO_FAIL_SYNC_OF=SUFFIX: fdatasync and fsync of a descriptor whose path ends with SUFFIX
     (e.g. "/journal.ndjson") fail with EIO, once PERFZERO_FAIL_SYNC_AFTER (default 0) of them have
     succeeded;
   - PERFZERO_FAIL_SYNCFS=1: syncfs fails with EIO.
   Everything else goes to the real call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void path_of(int fd, char* path, size_t size) {
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, path, size - 1);
  path[n > 0 ? n : 0] = '\0';
}

static void log_call(const char* call, const char* path, int failed) {
  const char* log = getenv("PERFZERO_SYNC_LOG");
  if (log == NULL) return;
  char line[4200];
  const int n = snprintf(line, sizeof line, "%s %s %s\n", call, path, failed ? "failed" : "ok");
  const int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (write(fd, line, (size_t)n) < 0) { /* nothing to do: the test sees the line missing */
  }
  close(fd);
}

/* Whether a sync of `path` is to fail; counts the calls that matched. */
static int refuse_sync_of(const char* path) {
  static int matched = 0; /* the harness syncs from one thread */
  const char* suffix = getenv("PERFZERO_FAIL_SYNC_OF");
  if (suffix == NULL || suffix[0] == '\0') return 0;
  const size_t length = strlen(suffix);
  const size_t n = strlen(path);
  if (n < length || strcmp(path + n - length, suffix) != 0) return 0;
  const char* after = getenv("PERFZERO_FAIL_SYNC_AFTER");
  return ++matched > (after != NULL ? atoi(after) : 0);
}

static int sync_fd(const char* call, int fd, int refuse) {
  char path[4096];
  path_of(fd, path, sizeof path);
  int result;
  int saved;
  if (refuse < 0 ? refuse_sync_of(path) : refuse) {
    result = -1;
    saved = EIO;
  } else {
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, call);
    result = real != NULL ? real(fd) : 0;
    saved = errno;
  }
  log_call(call, path, result != 0);
  errno = saved;
  return result;
}

__attribute__((visibility("default"))) int fdatasync(int fd) { return sync_fd("fdatasync", fd, -1); }

__attribute__((visibility("default"))) int fsync(int fd) { return sync_fd("fsync", fd, -1); }

__attribute__((visibility("default"))) int syncfs(int fd) {
  const char* fail = getenv("PERFZERO_FAIL_SYNCFS");
  return sync_fd("syncfs", fd, fail != NULL && strcmp(fail, "1") == 0);
}
