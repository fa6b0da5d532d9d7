/*
 * The messages between the harness and its long-lived perfzero-launch, over one AF_UNIX stream
 * socket (the launcher's standard input). Shared by the C launcher and the C++ harness, which are
 * always built together, so the structs go over the socket as they are.
 *
 * Per trial: the harness sends a pz_launch_request header (with the trial's log file descriptor
 * attached as SCM_RIGHTS) followed by `payload_bytes` of NUL-terminated strings: the working
 * directory, then `argc` arguments, then `envc` NAME=value entries. The launcher answers once:
 * PZ_LAUNCH_DONE once the whole tree is reaped, PZ_LAUNCH_SETUP_FAILED / PZ_LAUNCH_FORK_FAILED
 * when the method could not start, or PZ_LAUNCH_BAD_REQUEST (and exits) for one it cannot read. One reply, not a
 * "started" one before it: the harness sleeps through the trial, and a second message would wake it while the method
 * starts.
 */
#ifndef PERFZERO_LAUNCH_PROTOCOL_H
#define PERFZERO_LAUNCH_PROTOCOL_H

#include <stdint.h>

#define PZ_LAUNCH_MAGIC 0x325a5050u /* "PPZ2" (one answer per trial): a request from this very build */
/* Larger than any command line plus environment the kernel would exec (ARG_MAX is 2 MiB here). */
#define PZ_LAUNCH_MAX_PAYLOAD (16u << 20)

/* The counters perf_event_open can count for a trial (launcher_counters.h): bit i of
   pz_launch_request.counters asks for counter i. */
enum pz_counter {
  PZ_COUNTER_TASK_CLOCK = 0,
  PZ_COUNTER_CONTEXT_SWITCHES,
  PZ_COUNTER_CPU_MIGRATIONS,
  PZ_COUNTER_PAGE_FAULTS,
  PZ_COUNTER_CYCLES,
  PZ_COUNTER_INSTRUCTIONS,
  PZ_COUNTER_BRANCHES,
  PZ_COUNTER_BRANCH_MISSES,
  PZ_COUNTER_CACHE_REFERENCES,
  PZ_COUNTER_CACHE_MISSES,
  PZ_COUNTERS
};

struct pz_launch_request {
  uint32_t magic;
  uint32_t payload_bytes;
  uint32_t argc;
  uint32_t envc;
  uint32_t counters; /* bit per enum pz_counter; 0: count nothing */
  uint32_t reserved;
};

enum pz_launch_reply_kind {
  /* 1 was a STARTED reply, before the harness stopped waiting for one */
  PZ_LAUNCH_SETUP_FAILED = 2, /* error: errno of chdir in the child; nothing runs */
  PZ_LAUNCH_FORK_FAILED = 3,  /* error: errno of fork */
  PZ_LAUNCH_BAD_REQUEST = 4,  /* the request could not be read; the launcher exits */
  PZ_LAUNCH_DONE = 5          /* the tree is gone: pid and wait_status of the method, usage of every reaped process,
                                 how long their main threads waited for a CPU (run_delay, -1: unknown), and the
                                 tree's wall time on the launcher's clock, which a stopped harness cannot stretch */
};

struct pz_launch_reply {
  int32_t kind;
  int32_t pid;
  int32_t error;
  int32_t wait_status;
  int32_t reaped_processes;
  int32_t leftovers_killed; /* DONE: processes still running after the method's main process ended, killed */
  int64_t maxrss_kib;
  int64_t user_microseconds;
  int64_t system_microseconds;
  int64_t run_delay_microseconds;
  int64_t wall_nanoseconds; /* DONE: from just before the method's process was made to the tree reaped */
  /* DONE: the kernel's rusage of the tree, summed like the CPU times (what the counters fall back on) */
  int64_t voluntary_switches;
  int64_t involuntary_switches;
  int64_t minor_faults;
  int64_t major_faults;
  /* DONE: per enum pz_counter, the count from the method's exec to the tree reaped, scaled by
     enabled/running time when the PMU multiplexed it; its error: 0 counted, else perf_event_open's
     errno (-1: not asked for); the share of the time it was on the PMU, in millionths */
  int64_t counter_values[PZ_COUNTERS];
  int32_t counter_errors[PZ_COUNTERS];
  int32_t counter_running_ppm[PZ_COUNTERS];
  int32_t counters_user_only; /* 1: counted in user space only (perf_event_paranoid forbade the kernel's) */
  int32_t reserved;
};

#endif
