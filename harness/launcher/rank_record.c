/* The records perfzero-rank writes for the harness (rank_record.h). */
#define _GNU_SOURCE
#include "rank_record.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

void json_safe(char* text) {
  for (; *text != '\0'; ++text) {
    const unsigned char c = (unsigned char)*text;
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') *text = '?';
  }
}

/* A short text from a file (its first line), made safe for JSON; "" when unreadable. */
static void read_line(const char* path, const char* key, char* out, size_t size) {
  out[0] = '\0';
  FILE* f = fopen(path, "r");
  if (f == NULL) return;
  char line[512];
  while (fgets(line, sizeof line, f) != NULL) {
    if (key != NULL && strncmp(line, key, strlen(key)) != 0) continue;
    const char* value = line;
    if (key != NULL) {
      const char* colon = strchr(line, ':');
      value = colon != NULL ? colon + 1 : line + strlen(key);
      while (*value == ' ' || *value == '\t') ++value;
    }
    size_t length = strcspn(value, "\n");
    if (length >= size) length = size - 1;
    memcpy(out, value, length);
    out[length] = '\0';
    break;
  }
  fclose(f);
}

static double seconds_of(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

static void write_host(FILE* f, const struct host_load* load, double wall, struct rank_gpus* gpus) {
  char model[256], kernel[128] = "", boot_id[64], mem[64];
  read_line("/proc/cpuinfo", "model name", model, sizeof model);
  read_line("/proc/sys/kernel/random/boot_id", NULL, boot_id, sizeof boot_id);
  read_line("/proc/meminfo", "MemTotal", mem, sizeof mem);
  struct utsname u;
  if (uname(&u) == 0) snprintf(kernel, sizeof kernel, "%s", u.release);
  json_safe(model);
  json_safe(kernel);
  json_safe(boot_id);
  fprintf(f,
          "\"host_info\":{\"cpus\":%ld,\"cpu_model\":\"%s\",\"mem_total_bytes\":%lld,\"kernel\":\"%s\","
          "\"boot_id\":\"%s\"},",
          sysconf(_SC_NPROCESSORS_ONLN), model, atoll(mem) * 1024LL, kernel, boot_id);
  if (load != NULL && load->ok) {
    const double hz = (double)sysconf(_SC_CLK_TCK);
    struct rusage self;
    getrusage(RUSAGE_SELF, &self);
    fprintf(f,
            "\"host_load\":{\"busy_cpu_seconds\":%.6f,\"busy_max_fraction\":%.6f,\"samples\":%ld,"
            "\"interval_ms\":%ld,\"wall_seconds\":%.6f,\"agent_cpu_seconds\":%.6f},",
            (double)(load->last.busy - load->start.busy) / hz, load->busy_max, load->samples, load->interval_ms, wall,
            seconds_of(self.ru_utime) + seconds_of(self.ru_stime));
  }
  if (gpus != NULL) rank_gpus_write_json(f, gpus);
}

/* Records are written to a temporary name, then renamed: the harness never reads half a record.
 * `kind` is "" for the end report (rank-N.json) and ".start" for the start record. */
static FILE* begin_record(const char* ranks_dir, long rank, const char* kind, char* path, char* tmp) {
  const int n1 = snprintf(path, PATH_MAX, "%s/rank-%ld%s.json", ranks_dir, rank, kind);
  const int n2 = snprintf(tmp, PATH_MAX, "%s/.rank-%ld%s.json.tmp", ranks_dir, rank, kind);
  if (n1 < 0 || n2 < 0 || n1 >= PATH_MAX || n2 >= PATH_MAX) {
    fprintf(stderr, "perfzero-rank: rank %ld: the trial directory's path is too long\n", rank);
    return NULL;
  }
  FILE* f = fopen(tmp, "w");
  if (f == NULL) fprintf(stderr, "perfzero-rank: rank %ld cannot write %s: %s\n", rank, tmp, strerror(errno));
  return f;
}

static void end_record(FILE* f, long rank, const char* path, const char* tmp) {
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    fprintf(stderr, "perfzero-rank: rank %ld cannot write %s: %s\n", rank, path, strerror(errno));
  }
}

static void write_identity(FILE* f, const struct rank_identity* id, pid_t pid) {
  fprintf(f, "{\"rank\":%ld,\"world_size\":%ld,\"local_rank\":%ld,\"host\":\"%s\",\"pid\":%ld,", id->rank, id->world,
          id->local, id->host, (long)pid);
}

void write_start(const char* ranks_dir, const struct rank_identity* id) {
  char path[PATH_MAX], tmp[PATH_MAX];
  FILE* f = begin_record(ranks_dir, id->rank, ".start", path, tmp);
  if (f == NULL) return;
  write_identity(f, id, getpid());
  write_host(f, NULL, 0, NULL);
  fprintf(f, "\"started\":true}\n");
  end_record(f, id->rank, path, tmp);
}

void write_report(const char* ranks_dir, const struct rank_identity* id, const struct rank_end* end,
                  const struct host_load* load, struct rank_gpus* gpus, const struct rank_tree* tree) {
  char path[PATH_MAX], tmp[PATH_MAX];
  FILE* f = begin_record(ranks_dir, id->rank, "", path, tmp);
  if (f == NULL) return;
  write_identity(f, id, end->pid);
  write_host(f, load, end->wall, gpus);
  if (end->exec_errno != 0) {
    fprintf(f, "\"exit_code\":127,\"signal\":null,\"error\":\"could not start the command: %s\",",
            strerror(end->exec_errno));
  } else if (WIFSIGNALED(end->status)) {
    fprintf(f, "\"exit_code\":null,\"signal\":%d,", WTERMSIG(end->status));
  } else {
    fprintf(f, "\"exit_code\":%d,\"signal\":null,", WEXITSTATUS(end->status));
  }
  if (tree->samples > 0) {
    fprintf(f, "\"tree_max_rss_bytes\":%llu,\"tree_max_processes\":%ld,\"tree_max_threads\":%ld,\"tree_samples\":%ld,",
            tree->max_rss_bytes, tree->max_processes, tree->max_threads, tree->samples);
  }
  fprintf(f,
          "\"max_rss_bytes\":%lld,\"user_seconds\":%.6f,\"system_seconds\":%.6f,\"wall_seconds\":%.6f,"
          "\"tmp_leftover_files\":%ld}\n",
          (long long)end->usage.ru_maxrss * 1024LL, seconds_of(end->usage.ru_utime), seconds_of(end->usage.ru_stime),
          end->wall, end->tmp_leftovers);
  end_record(f, id->rank, path, tmp);
}
