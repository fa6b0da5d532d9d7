/*
 * perfzero-rank: the agent every rank of a multi-rank method runs under (`launch: {engine: mpirun}`).
 *
 * Why it exists: mpirun (and srun) start the ranks, not the harness, so nothing of the harness sits
 * between a rank and the engine. This program does, on whatever host the rank lands:
 *  - it gives the method the same rank variables whatever engine started it (PERFZERO_RANK,
 *    PERFZERO_WORLD_SIZE, PERFZERO_LOCAL_RANK, PERFZERO_HOST), read from OpenMPI's, PMIx's or Slurm's;
 *  - a TMPDIR of the rank's own on the node (under PERFZERO_NODE_TMP, else /tmp), never the trial
 *    directory, which may be on a shared file system: MPI keeps its session files there. It is
 *    removed when the rank ends, and what was left in it is counted;
 *  - one result per trial: rank 0 keeps PERFZERO_RESULT_FILE; every other rank is pointed at a file
 *    of its own in <trial>/ranks/, which the harness refuses (and says so) instead of letting the
 *    last writer win;
 *  - where the rank runs, in <trial>/ranks/rank-N.start.json before the method starts (its host and
 *    the host's facts), so a rank killed before it could report is still named with its host;
 *  - how the rank ended, measured as perfzero-launch measures a local method (wait4: exit status,
 *    peak RSS, CPU time), and its process tree sampled while it ran (rank_tree.h: the tree's summed
 *    peak RSS, processes, threads), written to <trial>/ranks/rank-N.json for the harness to read;
 *  - the host it ran on: its facts (CPUs, model, memory, kernel, boot id) and, from the first rank on
 *    each host (local rank 0), the host's CPU load while the rank ran: a thread reads /proc/stat
 *    every PERFZERO_HOST_SAMPLE_MS (default 100, 0: only at the start and the end), so a host that
 *    was busy with something else is seen on every host, not only where perfzero runs; the same rank
 *    watches the host's GPUs through nvidia-smi (rank_gpus.h);
 * It then ends as the method did (the same exit code, or the same signal), so the engine sees the
 * rank's own end.
 *
 * usage: perfzero-rank COMMAND [ARG...]   (environment: PERFZERO_TRIAL_DIR, the engine's rank variables)
 * Written in C, with no C++ runtime, to stay small: its own peak RSS must not hide a rank's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rank_gpus.h"
#include "rank_tree.h"

static volatile sig_atomic_t g_child = 0;

/* mpirun ends ranks with SIGTERM (then SIGKILL): the method's whole process group gets it, and
 * ends as it chooses. */
static void forward(int sig) {
  if (g_child > 0) kill(-g_child, sig);
}

/* The first of these variables that is set, as a number; -1 when none is. */
static long first_number(const char* const* names) {
  for (; *names != NULL; ++names) {
    const char* v = getenv(*names);
    if (v == NULL || *v == '\0') continue;
    char* end = NULL;
    errno = 0;
    const long n = strtol(v, &end, 10);
    if (errno == 0 && *end == '\0' && n >= 0) return n;
  }
  return -1;
}

static void set_number(const char* name, long value) {
  char text[32];
  snprintf(text, sizeof text, "%ld", value);
  setenv(name, text, 1);
}

static long g_leftovers = 0;
static int count_and_remove(const char* path, const struct stat* st, int flag, struct FTW* ftw) {
  (void)st;
  if (ftw->level > 0 && flag != FTW_DP) ++g_leftovers;
  remove(path);
  return 0;
}

/* Text as a JSON string body: host names and the other host facts are plain ASCII; anything else
 * becomes '?'. */
static void json_safe(char* text) {
  for (; *text != '\0'; ++text) {
    const unsigned char c = (unsigned char)*text;
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') *text = '?';
  }
}

/* The whole machine's CPU time in clock ticks (every CPU's summed): busy is all but idle and iowait. */
struct cpu_ticks {
  unsigned long long busy, total;
};

static int read_cpu_ticks(struct cpu_ticks* out) {
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

/* What the rank's agent watches while the rank runs, by a thread of its own so that the rank's end
 * is seen at once by the main thread's wait4: its process tree (every rank), and the host's load
 * (the host's first rank). */
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

static void* sample_host(void* arg) {
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

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

static void write_identity(FILE* f, long rank, long world, long local, const char* host, pid_t pid) {
  fprintf(f, "{\"rank\":%ld,\"world_size\":%ld,\"local_rank\":%ld,\"host\":\"%s\",\"pid\":%ld,", rank, world, local,
          host, (long)pid);
}

/* Where the rank runs, before its command starts: a rank killed with no chance to report (SIGKILL
 * after a time-out, a lost host) is still named with its host. */
static void write_start(const char* ranks_dir, long rank, long world, long local, const char* host) {
  char path[PATH_MAX], tmp[PATH_MAX];
  FILE* f = begin_record(ranks_dir, rank, ".start", path, tmp);
  if (f == NULL) return;
  write_identity(f, rank, world, local, host, getpid());
  write_host(f, NULL, 0, NULL);
  fprintf(f, "\"started\":true}\n");
  end_record(f, rank, path, tmp);
}

static void write_report(const char* ranks_dir, long rank, long world, long local, const char* host, pid_t pid,
                         int status, const struct rusage* usage, double wall, int exec_errno,
                         const struct host_load* load, struct rank_gpus* gpus, const struct rank_tree* tree) {
  char path[PATH_MAX], tmp[PATH_MAX];
  FILE* f = begin_record(ranks_dir, rank, "", path, tmp);
  if (f == NULL) return;
  write_identity(f, rank, world, local, host, pid);
  write_host(f, load, wall, gpus);
  if (exec_errno != 0) {
    fprintf(f, "\"exit_code\":127,\"signal\":null,\"error\":\"could not start the command: %s\",",
            strerror(exec_errno));
  } else if (WIFSIGNALED(status)) {
    fprintf(f, "\"exit_code\":null,\"signal\":%d,", WTERMSIG(status));
  } else {
    fprintf(f, "\"exit_code\":%d,\"signal\":null,", WEXITSTATUS(status));
  }
  if (tree->samples > 0) {
    fprintf(f, "\"tree_max_rss_bytes\":%llu,\"tree_max_processes\":%ld,\"tree_max_threads\":%ld,\"tree_samples\":%ld,",
            tree->max_rss_bytes, tree->max_processes, tree->max_threads, tree->samples);
  }
  fprintf(f,
          "\"max_rss_bytes\":%lld,\"user_seconds\":%.6f,\"system_seconds\":%.6f,\"wall_seconds\":%.6f,"
          "\"tmp_leftover_files\":%ld}\n",
          (long long)usage->ru_maxrss * 1024LL, seconds_of(usage->ru_utime), seconds_of(usage->ru_stime), wall,
          g_leftovers);
  end_record(f, rank, path, tmp);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: perfzero-rank COMMAND [ARG...]  (started by mpirun or srun for a perfzero method)\n");
    return 2;
  }
  static const char* const kRank[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID", "PMI_RANK", NULL};
  static const char* const kSize[] = {"OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "PMI_SIZE", NULL};
  static const char* const kLocal[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID", NULL};
  const long rank = first_number(kRank);
  const char* trial_dir = getenv("PERFZERO_TRIAL_DIR");
  if (rank < 0 || trial_dir == NULL) {
    fprintf(
        stderr, "perfzero-rank: %s is not set; it runs under mpirun or srun, started by perfzero\n",
        rank < 0 ? "no rank variable (OMPI_COMM_WORLD_RANK, PMIX_RANK, SLURM_PROCID, PMI_RANK)" : "PERFZERO_TRIAL_DIR");
    return 127;
  }
  const long world = first_number(kSize);
  const long local = first_number(kLocal);
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  json_safe(host);

  char ranks_dir[PATH_MAX - 64];
  const int n = snprintf(ranks_dir, sizeof ranks_dir, "%s/ranks", trial_dir);
  if (n < 0 || (size_t)n >= sizeof ranks_dir) {
    fprintf(stderr, "perfzero-rank: the trial directory's path is too long: %s\n", trial_dir);
    return 127;
  }
  mkdir(ranks_dir, 0755); /* every rank tries; one makes it */
  write_start(ranks_dir, rank, world, local, host);

  set_number("PERFZERO_RANK", rank);
  set_number("PERFZERO_WORLD_SIZE", world);
  set_number("PERFZERO_LOCAL_RANK", local);
  setenv("PERFZERO_HOST", host, 1);
  if (rank != 0) {
    char result[PATH_MAX];
    const int n = snprintf(result, sizeof result, "%s/rank-%ld.result.json", ranks_dir, rank);
    if (n < 0 || (size_t)n >= sizeof result) {
      fprintf(stderr, "perfzero-rank: the trial directory's path is too long: %s\n", trial_dir);
      return 127;
    }
    setenv("PERFZERO_RESULT_FILE", result, 1);
  }
  const char* base = getenv("PERFZERO_NODE_TMP");
  char tmpdir[PATH_MAX];
  const int nt = snprintf(tmpdir, sizeof tmpdir, "%s/perfzero-rank%ld-XXXXXX",
                          base != NULL && *base != '\0' ? base : "/tmp", rank);
  const int have_tmp = nt > 0 && (size_t)nt < sizeof tmpdir && mkdtemp(tmpdir) != NULL;
  if (have_tmp) setenv("TMPDIR", tmpdir, 1);

  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) {
    perror("perfzero-rank: pipe");
    return 127;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = forward;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);

  /* Orphans of the method come to this agent, which ends them with the rank: nothing of a rank
   * outlives it on a host that perfzero-launch does not watch. */
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  const pid_t agent = getpid();
  /* Every rank's agent samples its tree; one per host watches the host: the first (local rank 0),
   * or every rank when the engine does not say which is first. */
  static struct host_load load = {.lock = PTHREAD_MUTEX_INITIALIZER, .interval_ms = 100};
  load.watch_host = local <= 0;
  const long interval = first_number((const char* const[]){"PERFZERO_HOST_SAMPLE_MS", NULL});
  if (interval >= 0) load.interval_ms = interval > 60000 ? 60000 : interval;
  pthread_condattr_t monotonic;
  pthread_condattr_init(&monotonic);
  pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
  pthread_cond_init(&load.wake, &monotonic);
  pthread_condattr_destroy(&monotonic);
  if (load.watch_host) {
    load.ok = read_cpu_ticks(&load.start);
    load.last = load.start;
  }
  pthread_t sampler;
  const int sampling = load.interval_ms > 0 && pthread_create(&sampler, NULL, sample_host, &load) == 0;
  static struct rank_gpus gpus;
  const int watching_gpus = load.watch_host && load.interval_ms > 0;
  if (watching_gpus) rank_gpus_start(&gpus, load.interval_ms);
  const double started = now_seconds();
  const pid_t pid = fork();
  if (pid < 0) {
    perror("perfzero-rank: fork");
    return 127;
  }
  if (pid == 0) {
    close(pipefd[0]);
    /* Its own group, so a signal reaches the whole method; killed if the agent is (a lost rank's
     * method must not run on). */
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != agent) _exit(127);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGTERM, &dfl, NULL);
    sigaction(SIGINT, &dfl, NULL);
    sigaction(SIGHUP, &dfl, NULL);
    execvp(argv[1], argv + 1);
    const int e = errno;
    if (write(pipefd[1], &e, sizeof e) < 0) _exit(127);
    _exit(127);
  }
  /* Both sides set the group (the usual idiom), so a signal forwarded right after the fork finds it. */
  setpgid(pid, pid);
  g_child = pid;
  pthread_mutex_lock(&load.lock);
  load.tree.root = pid;
  pthread_mutex_unlock(&load.lock);
  close(pipefd[1]);
  int exec_errno = 0;
  if (read(pipefd[0], &exec_errno, sizeof exec_errno) != (ssize_t)sizeof exec_errno) exec_errno = 0;
  close(pipefd[0]);
  if (exec_errno != 0) fprintf(stderr, "perfzero-rank: rank %ld: %s: %s\n", rank, argv[1], strerror(exec_errno));

  int status = 0;
  struct rusage usage;
  memset(&usage, 0, sizeof usage);
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  const double wall = now_seconds() - started;
  if (sampling) {
    pthread_mutex_lock(&load.lock);
    load.stop = 1;
    pthread_cond_signal(&load.wake);
    pthread_mutex_unlock(&load.lock);
    pthread_join(sampler, NULL);
  }
  if (watching_gpus) rank_gpus_stop(&gpus); /* before the reaping below, which waits for every child */
  if (load.ok) {
    struct cpu_ticks end;
    if (read_cpu_ticks(&end)) load.last = end;
  }
  /* What the method left running in its group, and orphans handed to this subreaper, end here. */
  kill(-pid, SIGKILL);
  for (int tries = 0; tries < 200; ++tries) {
    const pid_t reaped = waitpid(-1, NULL, WNOHANG);
    if (reaped < 0) break; /* ECHILD: nothing is left */
    if (reaped == 0) {
      struct timespec pause = {0, 1000000};
      nanosleep(&pause, NULL);
    }
  }
  if (have_tmp) nftw(tmpdir, count_and_remove, 16, FTW_DEPTH | FTW_PHYS);
  write_report(ranks_dir, rank, world, local, host, pid, status, &usage, wall, exec_errno, local <= 0 ? &load : NULL,
               watching_gpus ? &gpus : NULL, &load.tree);
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    signal(sig, SIG_DFL);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    raise(sig);
    return 128 + sig;
  }
  return exec_errno != 0 ? 127 : WEXITSTATUS(status);
}
