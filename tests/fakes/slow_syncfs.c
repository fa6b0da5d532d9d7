/* An LD_PRELOAD shim that makes syncfs(2) take PERFZERO_SLOW_SYNCFS_MS milliseconds first, so that a
   test can send a signal while a run's final writes are under way (the run's end calls syncfs once,
   after run.json says how the run ended). Everything else is untouched. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

__attribute__((visibility("default"))) int syncfs(int fd) {
  const char* ms = getenv("PERFZERO_SLOW_SYNCFS_MS");
  if (ms != NULL) {
    const long wait = strtol(ms, NULL, 10);
    struct timespec ts = {wait / 1000, (wait % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
  }
  int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "syncfs");
  return real != NULL ? real(fd) : 0;
}
