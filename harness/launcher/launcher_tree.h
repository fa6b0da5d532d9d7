/* The method's process tree as perfzero-launch sees it: its children, reaped and accounted. */
#ifndef PERFZERO_LAUNCHER_TREE_H
#define PERFZERO_LAUNCHER_TREE_H

#include <signal.h>
#include <sys/types.h>

/* Set by the parent-death handler: the harness is gone, the tree must end and the launcher with it. */
extern volatile sig_atomic_t launcher_parent_gone;

/* Arms PR_SET_PDEATHSIG; returns 0 when `harness_pid` is no longer our parent (it died before the
   signal was armed, so none will ever come). */
int watch_parent(long harness_pid);

/* SIGKILLs every child of this process (the method and the orphans adopted as subreaper).
   Async-signal-safe. */
void kill_remaining_children(void);

/* What the reaping loop learned: the kernel's usage summed over every process it reaped. */
struct tree_usage {
  long maxrss_kib;
  long user_microseconds;
  long system_microseconds;
  long run_delay_microseconds; /* summed over the reaped processes' main threads; -1 when /proc had none */
  int reaped;
  int leftovers_killed; /* killed by SIGKILL after the main process ended: what it left running */
  int child_status;
  /* rusage of the reaped processes (each with its own waited-for descendants), summed */
  long voluntary_switches;
  long involuntary_switches;
  long minor_faults;
  long major_faults;
};

/* /proc/PID/schedstat opened (close-on-exec), or -1. */
int open_schedstat(pid_t pid);

/* Reaps every process of the tree until none is left; ends what the method leaves behind.
   `child_schedstat`: the method's /proc/PID/schedstat opened while it ran, or -1 (opened then). */
struct tree_usage reap_tree(pid_t child, int child_schedstat);

#endif
