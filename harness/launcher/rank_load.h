/*
 * What perfzero-rank (rank_main.c) watches while its rank runs, by a thread of its own so that the
 * rank's end is seen at once by the main thread's wait4: the rank's process tree (every rank) and
 * the host's CPU load (the host's first rank), read from /proc/stat every interval.
 */
#ifndef PERFZERO_RANK_LOAD_H
#define PERFZERO_RANK_LOAD_H

#include <pthread.h>

#include "rank_tree.h"

/* The whole machine's CPU time in clock ticks (every CPU's summed): busy is all but idle and iowait. */
struct cpu_ticks {
  unsigned long long busy, total;
};

struct host_load {
  pthread_mutex_t lock;
  pthread_cond_t wake;
  int stop;
  long interval_ms;
  int watch_host; /* this rank watches the host's load */
  struct cpu_ticks start, last;
  long samples;
  double busy_max; /* the busiest interval, as a fraction of all CPUs */
  int ok;
  struct rank_tree tree;
};

/* The machine's ticks now; 0 when /proc/stat cannot be read. */
int read_cpu_ticks(struct cpu_ticks* out);
/* The sampling thread's body (its argument: the struct host_load), until `stop` is set and `wake`
 * signalled. */
void* sample_host(void* arg);

#endif
