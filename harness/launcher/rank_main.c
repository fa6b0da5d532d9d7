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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rank_gpus.h"
#include "rank_load.h"
#include "rank_record.h"
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

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Who this rank is, from whichever engine started it; 0 (having said why) when no engine did. */
static int find_identity(struct rank_identity* id, const char* trial_dir) {
  static const char* const kRank[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID", "PMI_RANK", NULL};
  static const char* const kSize[] = {"OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "PMI_SIZE", NULL};
  static const char* const kLocal[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID", NULL};
  id->rank = first_number(kRank);
  if (id->rank < 0 || trial_dir == NULL) {
    fprintf(stderr, "perfzero-rank: %s is not set; it runs under mpirun or srun, started by perfzero\n",
            id->rank < 0 ? "no rank variable (OMPI_COMM_WORLD_RANK, PMIX_RANK, SLURM_PROCID, PMI_RANK)"
                         : "PERFZERO_TRIAL_DIR");
    return 0;
  }
  id->world = first_number(kSize);
  id->local = first_number(kLocal);
  memset(id->host, 0, sizeof id->host);
  gethostname(id->host, sizeof id->host - 1);
  json_safe(id->host);
  return 1;
}

/* Whether snprintf's `n` characters fit in `size`; when not (having said so), the trial directory's
 * path is too long. */
static int fits(int n, size_t size, const char* trial_dir) {
  if (n < 0 || (size_t)n >= size) {
    fprintf(stderr, "perfzero-rank: the trial directory's path is too long: %s\n", trial_dir);
    return 0;
  }
  return 1;
}

/* The method sees the same rank variables whatever engine started it, and every rank but 0 (which
 * keeps PERFZERO_RESULT_FILE) a result file of its own, which the harness refuses instead of letting
 * the last writer win. 0 (having said why) when that file's path is too long. */
static int set_rank_variables(const struct rank_identity* id, const char* ranks_dir, const char* trial_dir) {
  set_number("PERFZERO_RANK", id->rank);
  set_number("PERFZERO_WORLD_SIZE", id->world);
  set_number("PERFZERO_LOCAL_RANK", id->local);
  setenv("PERFZERO_HOST", id->host, 1);
  if (id->rank != 0) {
    char result[PATH_MAX];
    const int n = snprintf(result, sizeof result, "%s/rank-%ld.result.json", ranks_dir, id->rank);
    if (!fits(n, sizeof result, trial_dir)) return 0;
    setenv("PERFZERO_RESULT_FILE", result, 1);
  }
  return 1;
}

/* A TMPDIR of the rank's own on the node, never the trial directory (which may be on a shared file
 * system): MPI keeps its session files there. 1 when it was made. */
static int make_rank_tmpdir(long rank, char* tmpdir, size_t size) {
  const char* base = getenv("PERFZERO_NODE_TMP");
  const int nt =
      snprintf(tmpdir, size, "%s/perfzero-rank%ld-XXXXXX", base != NULL && *base != '\0' ? base : "/tmp", rank);
  const int have_tmp = nt > 0 && (size_t)nt < size && mkdtemp(tmpdir) != NULL;
  if (have_tmp) setenv("TMPDIR", tmpdir, 1);
  return have_tmp;
}

/* The signals that end a rank: the agent forwards them, the method takes them as it would alone. */
static void handle_end_signals(void (*handler)(int)) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
}

/* What the agent watches beside the method: its tree and the host's load (rank_load.h), the host's
 * GPUs (rank_gpus.h). */
struct watchers {
  struct host_load load;
  pthread_t sampler;
  int sampling; /* the sampler thread runs */
  struct rank_gpus gpus;
  int watching_gpus;
};

/* Every rank's agent samples its tree; one per host watches the host: the first (local rank 0), or
 * every rank when the engine does not say which is first. */
static void start_watching(struct watchers* w, long local) {
  struct host_load* load = &w->load;
  load->watch_host = local <= 0;
  const long interval = first_number((const char* const[]){"PERFZERO_HOST_SAMPLE_MS", NULL});
  if (interval >= 0) load->interval_ms = interval > 60000 ? 60000 : interval;
  pthread_condattr_t monotonic;
  pthread_condattr_init(&monotonic);
  pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
  pthread_cond_init(&load->wake, &monotonic);
  pthread_condattr_destroy(&monotonic);
  if (load->watch_host) {
    load->ok = read_cpu_ticks(&load->start);
    load->last = load->start;
  }
  w->sampling = load->interval_ms > 0 && pthread_create(&w->sampler, NULL, sample_host, load) == 0;
  w->watching_gpus = load->watch_host && load->interval_ms > 0;
  if (w->watching_gpus) rank_gpus_start(&w->gpus, load->interval_ms);
}

static void stop_watching(struct watchers* w) {
  struct host_load* load = &w->load;
  if (w->sampling) {
    pthread_mutex_lock(&load->lock);
    load->stop = 1;
    pthread_cond_signal(&load->wake);
    pthread_mutex_unlock(&load->lock);
    pthread_join(w->sampler, NULL);
  }
  if (w->watching_gpus) rank_gpus_stop(&w->gpus); /* before the reaping after it, which waits for every child */
  if (load->ok) {
    struct cpu_ticks end;
    if (read_cpu_ticks(&end)) load->last = end;
  }
}

/* The child's side of the fork. Its own group, so a signal reaches the whole method; killed if the
 * agent is (a lost rank's method must not run on). When the command cannot start, its errno goes
 * back through the pipe. */
static _Noreturn void exec_method(char** argv, const int pipefd[2], pid_t agent) {
  close(pipefd[0]);
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if (getppid() != agent) _exit(127);
  handle_end_signals(SIG_DFL);
  execvp(argv[1], argv + 1);
  const int e = errno;
  if (write(pipefd[1], &e, sizeof e) < 0) _exit(127);
  _exit(127);
}

/* The agent's side of the fork: the method is the tree to sample and the group to forward signals
 * to. Returns why the command could not start (the child's errno), 0 when it started. */
static int adopt_method(pid_t pid, const int pipefd[2], struct host_load* load) {
  /* Both sides set the group (the usual idiom), so a signal forwarded right after the fork finds it. */
  setpgid(pid, pid);
  g_child = pid;
  pthread_mutex_lock(&load->lock);
  load->tree.root = pid;
  pthread_mutex_unlock(&load->lock);
  close(pipefd[1]);
  int exec_errno = 0;
  if (read(pipefd[0], &exec_errno, sizeof exec_errno) != (ssize_t)sizeof exec_errno) exec_errno = 0;
  close(pipefd[0]);
  return exec_errno;
}

/* What the method left running in its group, and orphans handed to this subreaper, end here. */
static void end_what_is_left(pid_t pid) {
  kill(-pid, SIGKILL);
  for (int tries = 0; tries < 200; ++tries) {
    const pid_t reaped = waitpid(-1, NULL, WNOHANG);
    if (reaped < 0) break; /* ECHILD: nothing is left */
    if (reaped == 0) {
      struct timespec pause = {0, 1000000};
      nanosleep(&pause, NULL);
    }
  }
}

/* The agent ends as the method did (the same exit code, or the same signal), so the engine sees the
 * rank's own end. */
static int end_as_the_method_did(const struct rank_end* end) {
  if (WIFSIGNALED(end->status)) {
    const int sig = WTERMSIG(end->status);
    signal(sig, SIG_DFL);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    raise(sig);
    return 128 + sig;
  }
  return end->exec_errno != 0 ? 127 : WEXITSTATUS(end->status);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: perfzero-rank COMMAND [ARG...]  (started by mpirun or srun for a perfzero method)\n");
    return 2;
  }
  const char* trial_dir = getenv("PERFZERO_TRIAL_DIR");
  struct rank_identity id;
  if (!find_identity(&id, trial_dir)) return 127;
  char ranks_dir[PATH_MAX - 64];
  if (!fits(snprintf(ranks_dir, sizeof ranks_dir, "%s/ranks", trial_dir), sizeof ranks_dir, trial_dir)) return 127;
  mkdir(ranks_dir, 0755); /* every rank tries; one makes it */
  write_start(ranks_dir, &id);
  if (!set_rank_variables(&id, ranks_dir, trial_dir)) return 127;
  char tmpdir[PATH_MAX];
  const int have_tmp = make_rank_tmpdir(id.rank, tmpdir, sizeof tmpdir);

  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) {
    perror("perfzero-rank: pipe");
    return 127;
  }
  handle_end_signals(forward);
  /* Orphans of the method come to this agent, which ends them with the rank: nothing of a rank
   * outlives it on a host that perfzero-launch does not watch. */
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  const pid_t agent = getpid();
  static struct watchers watch = {.load = {.lock = PTHREAD_MUTEX_INITIALIZER, .interval_ms = 100}};
  start_watching(&watch, id.local);
  const double started = now_seconds();
  const pid_t pid = fork();
  if (pid < 0) {
    perror("perfzero-rank: fork");
    return 127;
  }
  if (pid == 0) exec_method(argv, pipefd, agent);
  struct rank_end end = {.pid = pid};
  end.exec_errno = adopt_method(pid, pipefd, &watch.load);
  if (end.exec_errno != 0)
    fprintf(stderr, "perfzero-rank: rank %ld: %s: %s\n", id.rank, argv[1], strerror(end.exec_errno));

  while (wait4(pid, &end.status, 0, &end.usage) < 0 && errno == EINTR) {
  }
  end.wall = now_seconds() - started;
  stop_watching(&watch);
  end_what_is_left(pid);
  if (have_tmp) nftw(tmpdir, count_and_remove, 16, FTW_DEPTH | FTW_PHYS);
  end.tmp_leftovers = g_leftovers;
  write_report(ranks_dir, &id, &end, id.local <= 0 ? &watch.load : NULL, watch.watching_gpus ? &watch.gpus : NULL,
               &watch.load.tree);
  return end_as_the_method_did(&end);
}
