/*
 * The method's counters, opened by perfzero-launch on itself: disabled, inherited by every process it
 * makes afterwards, and enabled by the kernel at the method's exec (enable_on_exec). The launcher
 * itself never execs, so only the methods' trees count, from their first instruction, children
 * included (their counts fold into these when they exit). Opened once for the run (perf_event_open
 * costs tens of microseconds per counter, a read one): a trial's counts are what the counters gained
 * between a read before its method starts and one after its tree is reaped. No work in the method.
 * The software counters are one group, read with one system call at each end of a trial (where
 * there were four at each end); a hardware counter stays on its own, so that a PMU short of counters still
 * multiplexes each alone instead of the group as a whole.
 */
#ifndef PERFZERO_LAUNCHER_COUNTERS_H
#define PERFZERO_LAUNCHER_COUNTERS_H

#include <stdint.h>

#include "launch_protocol.h"

struct counter_set {
  int opened; /* the counters of `opened_mask` are open */
  uint32_t opened_mask;
  int fd[PZ_COUNTERS];
  int32_t error[PZ_COUNTERS]; /* 0, an errno, or -1: not asked for */
  int user_only;
  int dummy_fd;                /* an event the method does not inherit (launcher_counters.c says why); -1: none */
  int group_fd;                /* the software counters' group leader; -1: none (or the kernel refused groups) */
  int group_slot[PZ_COUNTERS]; /* a software counter's place in the group's read; -1: read on its own */
  int group_size;
  int groups_refused;              /* an older kernel refused an inherited group: every counter is read on its own */
  int group_read_failed;           /* this trial's group could not be read, before or after it */
  uint64_t before[PZ_COUNTERS][3]; /* value, time enabled, time running, read before the trial */
};

/* Before a trial: opens the counters whose bit is set in `wanted` (enum pz_counter) unless they are
   open already (a different set closes the others first), and reads where they stand. One that
   cannot be opened keeps its errno. Where the kernel's share is forbidden (perf_event_paranoid >= 2,
   not root), every counter is opened for user space only. */
void counters_before_trial(struct counter_set* set, uint32_t wanted);
/* After the trial's tree is reaped: what each counter gained, into the reply. */
void counters_after_trial(struct counter_set* set, struct pz_launch_reply* reply);

#endif
