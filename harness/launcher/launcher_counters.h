/*
 * The method's counters, opened by perfzero-launch on itself just before it starts the method:
 * disabled, inherited by every process it makes afterwards, and enabled by the kernel at the method's
 * exec (enable_on_exec). The launcher itself never execs, so only the method's tree counts, from its
 * first instruction, children included (their counts fold into these when they exit). No work in the
 * method's process, and none between trials.
 */
#ifndef PERFZERO_LAUNCHER_COUNTERS_H
#define PERFZERO_LAUNCHER_COUNTERS_H

#include <stdint.h>

#include "launch_protocol.h"

struct counter_set {
  int fd[PZ_COUNTERS];
  int32_t error[PZ_COUNTERS]; /* 0, an errno, or -1: not asked for */
  int user_only;
};

/* Opens the counters whose bit is set in `wanted` (enum pz_counter); one that cannot be opened keeps
   its errno. Where the kernel's share is forbidden (perf_event_paranoid >= 2, not root), every
   counter is opened for user space only. */
void counters_open(struct counter_set* set, uint32_t wanted);
/* Reads every open counter into the reply and closes it. */
void counters_finish(struct counter_set* set, struct pz_launch_reply* reply);

#endif
