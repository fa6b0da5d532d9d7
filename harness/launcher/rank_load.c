/* The host's load and the rank's tree, sampled while a rank runs (rank_load.h). */
#define _GNU_SOURCE
#include "rank_load.h"

#include <signal.h>
#include <stdio.h>
#include <time.h>

int read_cpu_ticks(struct cpu_ticks* out) {
  FILE* f = fopen("/proc/stat", "r");
  if (f == NULL) return 0;
  unsigned long long v[8] = {0};
  const int got =
      fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
  fclose(f);
  if (got < 4) return 0;
  out->total = 0;
  for (int i = 0; i < 8; ++i) out->total += v[i];
  out->busy = out->total - v[3] - v[4];
  return 1;
}

void* sample_host(void* arg) {
  struct host_load* load = arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the main thread's to forward */
  pthread_mutex_lock(&load->lock);
  while (!load->stop) {
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until); /* the condition variable's clock: a clock step cannot skew it */
    until.tv_nsec += (load->interval_ms % 1000) * 1000000L;
    until.tv_sec += load->interval_ms / 1000 + until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    if (pthread_cond_timedwait(&load->wake, &load->lock, &until) == 0 && load->stop) break;
    rank_tree_sample(&load->tree);
    if (!load->watch_host || !load->ok) continue;
    struct cpu_ticks now;
    if (!read_cpu_ticks(&now)) continue;
    if (now.total > load->last.total) {
      double busy = (double)(now.busy - load->last.busy) / (double)(now.total - load->last.total);
      if (busy < 0) busy = 0; /* the kernel's counters are per-CPU sums: a CPU going offline can step them */
      if (busy > 1) busy = 1;
      if (busy > load->busy_max) load->busy_max = busy;
      ++load->samples;
    }
    load->last = now;
  }
  pthread_mutex_unlock(&load->lock);
  return NULL;
}
