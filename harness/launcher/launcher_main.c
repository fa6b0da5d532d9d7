/*
 * perfzero-launch: the small process between the harness and each benchmark child.
 *
 * Why it exists: the kernel's peak RSS of a process (ru_maxrss) starts from the high-water mark of
 * the process that forked it, so a child forked straight from the harness would report at least the
 * harness's own RSS. Forked from this tiny program instead, the child's ru_maxrss is its own peak (to
 * within this program's ~1 MiB), exactly, however short the peak lived. wait4() also folds in every
 * descendant the child waited for. As a subreaper it adopts orphaned grandchildren, reaps them too,
 * and ends any the child left behind, so the method's whole tree is accounted and nothing outlives it.
 * When the harness dies, even by SIGKILL, the kernel tells this process (PR_SET_PDEATHSIG), which
 * then ends the method's whole tree: no process of a run outlives its harness.
 *
 * usage: perfzero-launch RUSAGE_FILE PROGRAM [ARGS...]
 * It exits as the child did (same code, or the same signal) and writes to RUSAGE_FILE one line:
 *   "maxrss_kib user_seconds system_seconds reaped_processes"
 * Written in C, with no C++ runtime, to stay small.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

/* Async-signal-safe (it also runs in the parent-death handler): no stdio, no malloc. */
static void kill_remaining_children(void) {
  /* Orphans adopted by this subreaper are our children now; kill(-1) would reach too far, so read
     /proc/self/task/<tid>/children, which lists them. */
  char path[64] = "/proc/self/task/";
  char digits[16];
  int count = 0;
  for (long pid = (long)getpid(); pid > 0 && count < (int)sizeof digits; pid /= 10)
    digits[count++] = (char)('0' + pid % 10);
  size_t at = strlen(path);
  while (count > 0) path[at++] = digits[--count];
  memcpy(path + at, "/children", sizeof "/children");
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char text[4096];
  const ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return;
  text[n] = '\0';
  for (char* p = text; *p != '\0';) {
    while (*p == ' ' || *p == '\n') ++p;
    long pid = 0;
    while (*p >= '0' && *p <= '9') pid = pid * 10 + (*p++ - '0');
    if (pid > 0) kill((pid_t)pid, SIGKILL);
    if (*p != ' ' && *p != '\n') break;
  }
}

/* The harness died (even by kill -9): nothing of the method may outlive it. The kernel sends
   kParentDeathSignal (PR_SET_PDEATHSIG); this ends the tree, and the wait loop below reaps it and
   ends the orphans each reap uncovers, exactly as after a method that left processes behind. */
static const int kParentDeathSignal = SIGTERM;
static volatile sig_atomic_t parent_gone = 0;

static void on_parent_death(int sig) {
  parent_gone = sig;
  kill_remaining_children();
}

/* Arms the parent-death signal; returns 0 when the harness is already gone (it died before prctl,
   so no signal will ever come): $PERFZERO_HARNESS_PID names the parent we were started by. */
static int watch_parent(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_parent_death; /* no SA_RESTART: wait4 returns EINTR and the loop goes on */
  sigemptyset(&action.sa_mask);
  sigaction(kParentDeathSignal, &action, NULL);
  prctl(PR_SET_PDEATHSIG, kParentDeathSignal, 0, 0, 0);
  const char* expected = getenv("PERFZERO_HARNESS_PID");
  if (expected == NULL || *expected == '\0') return 1;
  return (long)getppid() == strtol(expected, NULL, 10);
}

/* True when no child is left to wait for: one system call, where reading the children list takes three. */
static int no_children_left(void) {
  siginfo_t info;
  info.si_pid = 0;
  return waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD;
}

static void write_usage(const char* path, long maxrss_kib, double user, double sys, int reaped) {
  char line[128];
  const int length = snprintf(line, sizeof line, "%ld %.6f %.6f %d\n", maxrss_kib, user, sys, reaped);
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (write(fd, line, (size_t)length) != length) {
    /* A short write leaves a line the harness cannot parse: it then reports no kernel figures. */
  }
  close(fd);
}

/* What the reaping loop learned: the kernel's usage summed over every process it reaped. */
struct tree_usage {
  long maxrss_kib;
  double user;
  double sys;
  int reaped;
  int child_status;
};

/* Reaps every process of the tree until none is left; ends what the method leaves behind. */
static struct tree_usage reap_tree(pid_t child) {
  struct tree_usage usage = {0, 0.0, 0.0, 0, 0};
  int child_done = 0;
  for (;;) {
    int status = 0;
    struct rusage ru;
    const pid_t pid = wait4(-1, &status, 0, &ru);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break; /* ECHILD: the whole tree is gone */
    }
    ++usage.reaped;
    if (ru.ru_maxrss > usage.maxrss_kib) usage.maxrss_kib = ru.ru_maxrss;
    usage.user += seconds(ru.ru_utime);
    usage.sys += seconds(ru.ru_stime);
    if (pid == child) {
      usage.child_status = status;
      child_done = 1;
    }
    /* The method is over when its main process ends; what it left running is ended with it. */
    if ((child_done || parent_gone) && !no_children_left()) kill_remaining_children();
  }
  return usage;
}

/* Ends the launcher the way the child ended. */
static int exit_like(int child_status) {
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

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: perfzero-launch RUSAGE_FILE PROGRAM [ARGS...]\n");
    return 127;
  }
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  /* A closed pipe must kill the method as it would outside perfzero, whatever the harness ignores. */
  signal(SIGPIPE, SIG_DFL);
  if (!watch_parent()) {
    fprintf(stderr, "perfzero-launch: the harness that started it is gone; not starting %s\n", argv[2]);
    return 127;
  }
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
  if (parent_gone) kill_remaining_children(); /* the harness died while we forked */

  const struct tree_usage usage = reap_tree(child);
  write_usage(argv[1], usage.maxrss_kib, usage.user, usage.sys, usage.reaped);
  return exit_like(usage.child_status);
}
