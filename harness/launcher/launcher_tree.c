/* Reaping and ending the method's tree (see launcher_main.c for why perfzero-launch exists). */
#define _GNU_SOURCE
#include "launcher_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

volatile sig_atomic_t launcher_parent_gone = 0;

static long microseconds(struct timeval tv) { return (long)tv.tv_sec * 1000000L + (long)tv.tv_usec; }

/* Async-signal-safe (it also runs in the parent-death handler): no stdio, no malloc. */
void kill_remaining_children(void) {
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
   kParentDeathSignal (PR_SET_PDEATHSIG); this ends the tree, and the wait loop reaps it and ends the
   orphans each reap uncovers, exactly as after a method that left processes behind. */
static const int kParentDeathSignal = SIGTERM;

static void on_parent_death(int sig) {
  launcher_parent_gone = sig;
  kill_remaining_children();
}

int watch_parent(long harness_pid) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_parent_death; /* no SA_RESTART: wait4 and recvmsg return EINTR */
  sigemptyset(&action.sa_mask);
  sigaction(kParentDeathSignal, &action, NULL);
  prctl(PR_SET_PDEATHSIG, kParentDeathSignal, 0, 0, 0);
  return (long)getppid() == harness_pid;
}

/* True when no child is left to wait for: one system call, where reading the children list takes three. */
static int no_children_left(void) {
  siginfo_t info;
  info.si_pid = 0;
  return waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD;
}

/* How long a process's main thread waited on a run queue, in microseconds (the second field of
   /proc/PID/schedstat, in ns), from that file's text. -1 when it is not such a text. */
static long run_delay_in(const char* text) {
  const char* p = text;
  while (*p >= '0' && *p <= '9') ++p; /* the time it ran */
  if (*p != ' ') return -1;
  ++p;
  long long waited = 0;
  if (*p < '0' || *p > '9') return -1;
  while (*p >= '0' && *p <= '9') waited = waited * 10 + (*p++ - '0');
  return (long)(waited / 1000);
}

/* The same read from an open /proc/PID/schedstat (readable while the process is a zombie, before it
   is reaped). -1 when unknown. */
static long run_delay_from(int fd) {
  char text[128];
  const ssize_t n = pread(fd, text, sizeof text - 1, 0);
  if (n <= 0) return -1;
  text[n] = '\0';
  return run_delay_in(text);
}

int open_schedstat(pid_t pid) {
  char path[64] = "/proc/";
  char digits[16];
  int count = 0;
  for (long p = (long)pid; p > 0 && count < (int)sizeof digits; p /= 10) digits[count++] = (char)('0' + p % 10);
  size_t at = strlen(path);
  while (count > 0) path[at++] = digits[--count];
  memcpy(path + at, "/schedstat", sizeof "/schedstat");
  return open(path, O_RDONLY | O_CLOEXEC);
}

static long run_delay_of(pid_t pid) {
  const int fd = open_schedstat(pid);
  if (fd < 0) return -1;
  const long delay = run_delay_from(fd);
  close(fd);
  return delay;
}

struct tree_usage reap_tree(pid_t child, int child_schedstat) {
  struct tree_usage usage = {0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0};
  int child_done = 0;
  for (;;) {
    int status = 0;
    struct rusage ru;
    /* Which process ended, without reaping it: its schedstat is read while it is still a zombie. */
    siginfo_t ended;
    memset(&ended, 0, sizeof ended);
    if (waitid(P_ALL, 0, &ended, WEXITED | WNOWAIT) < 0) {
      if (errno == EINTR) continue;
      break; /* ECHILD: the whole tree is gone */
    }
    const long delay =
        ended.si_pid == child && child_schedstat >= 0 ? run_delay_from(child_schedstat) : run_delay_of(ended.si_pid);
    if (delay >= 0)
      usage.run_delay_microseconds = (usage.run_delay_microseconds < 0 ? 0 : usage.run_delay_microseconds) + delay;
    const pid_t pid = wait4(ended.si_pid, &status, 0, &ru);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    ++usage.reaped;
    if (ru.ru_maxrss > usage.maxrss_kib) usage.maxrss_kib = ru.ru_maxrss;
    usage.user_microseconds += microseconds(ru.ru_utime);
    usage.system_microseconds += microseconds(ru.ru_stime);
    usage.voluntary_switches += ru.ru_nvcsw;
    usage.involuntary_switches += ru.ru_nivcsw;
    usage.minor_faults += ru.ru_minflt;
    usage.major_faults += ru.ru_majflt;
    if (pid == child) {
      usage.child_status = status;
      child_done = 1;
    } else if (child_done && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
      ++usage.leftovers_killed;
    }
    /* The method is over when its main process ends; what it left running is ended with it. With
       nothing left, the tree is reaped: no further wait needed to hear so. */
    if (child_done || launcher_parent_gone) {
      if (no_children_left()) break;
      kill_remaining_children();
    }
  }
  return usage;
}
