/*
 * perfzero-launch: the small process between the harness and each benchmark child.
 *
 * Why it exists: the kernel's peak RSS of a process (ru_maxrss) starts from the high-water mark of
 * the process that forked it, so a child forked straight from the harness would report at least the
 * harness's own RSS. Forked from this tiny program instead, the child's ru_maxrss is its own peak (to
 * within this program's ~1 MiB), exactly, however short the peak lived. wait4() also folds in every
 * descendant the child waited for. As a subreaper it adopts orphaned grandchildren, reaps them too,
 * and ends any the child left behind, so the method's whole tree is accounted and nothing outlives it.
 *
 * usage: perfzero-launch RUSAGE_FILE PROGRAM [ARGS...]
 * It exits as the child did (same code, or the same signal) and writes to RUSAGE_FILE one line:
 *   "maxrss_kib user_seconds system_seconds reaped_processes"
 * Written in C, with no C++ runtime, to stay small.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static double seconds(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

static void kill_remaining_children(void) {
  /* Orphans adopted by this subreaper are our children now; kill(-1) would reach too far, so walk
     /proc/self/task/<tid>/children, which lists them. */
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
  FILE* f = fopen(path, "r");
  if (f == NULL) return;
  int pid;
  while (fscanf(f, "%d", &pid) == 1) kill(pid, SIGKILL);
  fclose(f);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: perfzero-launch RUSAGE_FILE PROGRAM [ARGS...]\n");
    return 127;
  }
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  const pid_t child = fork();
  if (child < 0) {
    perror("perfzero-launch: fork");
    return 127;
  }
  if (child == 0) {
    execvp(argv[2], argv + 2);
    fprintf(stderr, "perfzero-launch: cannot run %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }

  long maxrss_kib = 0;
  double user = 0.0;
  double sys = 0.0;
  int reaped = 0;
  int child_status = 0;
  int child_done = 0;
  for (;;) {
    int status = 0;
    struct rusage ru;
    const pid_t pid = wait4(-1, &status, 0, &ru);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break; /* ECHILD: the whole tree is gone */
    }
    ++reaped;
    if (ru.ru_maxrss > maxrss_kib) maxrss_kib = ru.ru_maxrss;
    user += seconds(ru.ru_utime);
    sys += seconds(ru.ru_stime);
    if (pid == child) {
      child_status = status;
      child_done = 1;
      /* The method is over when its main process ends; what it left running is ended with it. */
      kill_remaining_children();
    } else if (child_done) {
      kill_remaining_children();
    }
  }

  FILE* out = fopen(argv[1], "w");
  if (out != NULL) {
    fprintf(out, "%ld %.6f %.6f %d\n", maxrss_kib, user, sys, reaped);
    fclose(out);
  }
  if (WIFSIGNALED(child_status)) {
    const int sig = WTERMSIG(child_status);
    /* Die of the same signal so the harness sees what the child saw, without a core file of ours. */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(sig, SIG_DFL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, sig);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(sig);
    return 128 + sig;
  }
  return WIFEXITED(child_status) ? WEXITSTATUS(child_status) : 127;
}
