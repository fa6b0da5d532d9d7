/*
 * The GPUs of a rank's host while the rank runs, for perfzero-rank (rank_main.c): the host's first
 * rank starts `nvidia-smi --query-gpu=... -lms N` beside the method and keeps, per GPU, its busiest
 * and mean utilization, its most memory used and its mean power.
 *
 * Why nvidia-smi and not NVML as the harness's own GPU sampler: perfzero-rank is linked statically
 * (no dynamic loading in every rank), and a static program cannot load libnvidia-ml. nvidia-smi comes
 * with the driver on every GPU host; a host without it (or without GPUs) simply reports none.
 */
#ifndef PERFZERO_RANK_GPUS_H
#define PERFZERO_RANK_GPUS_H

#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

#define RANK_GPUS_MAX 16

struct rank_gpu {
  int seen;
  char name[96];
  double util_max, util_sum; /* percent */
  double memory_used_max_mib, memory_total_mib;
  double power_sum_watts;
  long power_samples;
  long samples;
};

struct rank_gpus {
  pid_t smi;    /* nvidia-smi, or 0 */
  FILE* output; /* its standard output, read by the thread */
  pthread_t reader;
  int reading;
  pthread_mutex_t lock;
  struct rank_gpu gpu[RANK_GPUS_MAX];
};

/* Starts nvidia-smi (from the PATH) and the thread that reads it; nothing when it cannot. */
void rank_gpus_start(struct rank_gpus* g, long interval_ms);
/* Ends nvidia-smi and the thread; call before reaping the agent's other children. */
void rank_gpus_stop(struct rank_gpus* g);
/* `"host_gpus":[...],` when any GPU was seen, else nothing. */
void rank_gpus_write_json(FILE* f, struct rank_gpus* g);

#endif
