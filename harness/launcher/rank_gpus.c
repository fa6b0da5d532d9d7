/* The host's GPUs while a rank runs, read from nvidia-smi (rank_gpus.h says why). */
#define _GNU_SOURCE
#include "rank_gpus.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The fields asked for, in this order; with nounits, "[N/A]" stands where a value is unsupported. */
static const char kQuery[] = "--query-gpu=index,name,utilization.gpu,memory.used,memory.total,power.draw";

/* Splits a CSV line of nvidia-smi's ("0, NVIDIA H100 80GB HBM3, 35, 1234, 81559, 70.12") in place;
 * returns how many fields it found. */
static int split_fields(char* line, char** fields, int most) {
  int n = 0;
  char* save = NULL;
  for (char* f = strtok_r(line, ",\n", &save); f != NULL && n < most; f = strtok_r(NULL, ",\n", &save)) {
    while (*f == ' ') ++f;
    fields[n++] = f;
  }
  return n;
}

/* A number, or -1 when the field is not one ("[N/A]", "[Not Supported]"). */
static double number_of(const char* text) {
  char* end = NULL;
  errno = 0;
  const double v = strtod(text, &end);
  return errno == 0 && end != text && v >= 0 ? v : -1;
}

static void take_line(struct rank_gpus* g, char* line) {
  char* f[6];
  if (split_fields(line, f, 6) != 6) return;
  const double index = number_of(f[0]);
  if (index < 0 || index >= RANK_GPUS_MAX) return;
  struct rank_gpu* gpu = &g->gpu[(int)index];
  const double util = number_of(f[2]), used = number_of(f[3]), total = number_of(f[4]), power = number_of(f[5]);
  pthread_mutex_lock(&g->lock);
  if (!gpu->seen) {
    gpu->seen = 1;
    snprintf(gpu->name, sizeof gpu->name, "%s", f[1]);
    for (char* c = gpu->name; *c != '\0'; ++c) {
      if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f || *c == '"' || *c == '\\') *c = '?';
    }
  }
  if (util >= 0) {
    if (util > gpu->util_max) gpu->util_max = util;
    gpu->util_sum += util;
    ++gpu->samples;
  }
  if (used > gpu->memory_used_max_mib) gpu->memory_used_max_mib = used;
  if (total > 0) gpu->memory_total_mib = total;
  if (power >= 0) {
    gpu->power_sum_watts += power;
    ++gpu->power_samples;
  }
  pthread_mutex_unlock(&g->lock);
}

static void* read_smi(void* arg) {
  struct rank_gpus* g = arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the main thread's to forward */
  char line[512];
  while (fgets(line, sizeof line, g->output) != NULL) take_line(g, line);
  return NULL;
}

void rank_gpus_start(struct rank_gpus* g, long interval_ms) {
  memset(g, 0, sizeof *g);
  pthread_mutex_init(&g->lock, NULL);
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return;
  char interval[32];
  snprintf(interval, sizeof interval, "--loop-ms=%ld", interval_ms < 100 ? 100 : interval_ms);
  const pid_t agent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(out[0]);
    close(out[1]);
    return;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); /* never outlives the agent */
    if (getppid() != agent) _exit(127);
    dup2(out[1], STDOUT_FILENO);
    const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) dup2(null, STDERR_FILENO); /* a host without GPUs says so on stderr: not the method's log */
    /* The agent's signal dispositions are the method's to forward, not nvidia-smi's. */
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    execlp("nvidia-smi", "nvidia-smi", kQuery, "--format=csv,noheader,nounits", interval, (char*)NULL);
    _exit(127);
  }
  close(out[1]);
  g->smi = pid;
  g->output = fdopen(out[0], "r");
  if (g->output == NULL) {
    close(out[0]);
    return;
  }
  g->reading = pthread_create(&g->reader, NULL, read_smi, g) == 0;
}

void rank_gpus_stop(struct rank_gpus* g) {
  if (g->smi > 0) {
    kill(g->smi, SIGTERM);
    while (waitpid(g->smi, NULL, 0) < 0 && errno == EINTR) {
    }
    g->smi = 0;
  }
  if (g->reading) pthread_join(g->reader, NULL); /* its pipe's writer is gone: EOF */
  g->reading = 0;
  if (g->output != NULL) fclose(g->output);
  g->output = NULL;
}

void rank_gpus_write_json(FILE* f, struct rank_gpus* g) {
  int any = 0;
  for (int i = 0; i < RANK_GPUS_MAX; ++i) any |= g->gpu[i].seen;
  if (!any) return;
  fprintf(f, "\"host_gpus\":[");
  int first = 1;
  for (int i = 0; i < RANK_GPUS_MAX; ++i) {
    const struct rank_gpu* gpu = &g->gpu[i];
    if (!gpu->seen) continue;
    fprintf(f,
            "%s{\"index\":%d,\"name\":\"%s\",\"samples\":%ld,\"util_max_percent\":%.1f,\"util_mean_percent\":%.3f,"
            "\"memory_used_max_bytes\":%.0f,\"memory_total_bytes\":%.0f,",
            first ? "" : ",", i, gpu->name, gpu->samples, gpu->util_max,
            gpu->samples > 0 ? gpu->util_sum / (double)gpu->samples : 0.0, gpu->memory_used_max_mib * 1048576.0,
            gpu->memory_total_mib * 1048576.0);
    if (gpu->power_samples > 0) {
      fprintf(f, "\"power_mean_watts\":%.3f}", gpu->power_sum_watts / (double)gpu->power_samples);
    } else {
      fprintf(f, "\"power_mean_watts\":null}");
    }
    first = 0;
  }
  fprintf(f, "],");
}
