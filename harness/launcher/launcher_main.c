/*
 * perfzero-launch: the small, long-lived process between the harness and every benchmark child.
 *
 * Why it exists: the kernel's peak RSS of a process (ru_maxrss) starts from the high-water mark of
 * the process that forked it, so a child forked straight from the harness would report at least the
 * harness's own RSS. Forked from this tiny program instead, the child's ru_maxrss is its own peak (to
 * within this program's ~1 MiB), exactly, however short the peak lived. wait4() also folds in every
 * descendant the child waited for. As a subreaper it adopts orphaned grandchildren, reaps them too,
 * and ends any the child left behind, so the method's whole tree is accounted and nothing outlives it.
 * When the harness dies, even by SIGKILL, the kernel tells this process (PR_SET_PDEATHSIG), which
 * then ends the method's whole tree: no process of a run outlives its harness.
 *
 * Why it lives for the whole run: starting a program costs about as much as the shortest commands
 * users time (docs/performance.md), so the harness starts this one once and asks it, per trial, to
 * start the method (launch_protocol.h): one program start per trial, as hyperfine does.
 *
 * usage: perfzero-launch --serve HARNESS_PID   (standard input: the socket of launch_protocol.h)
 * Written in C, with no C++ runtime, to stay small.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch_protocol.h"
#include "launcher_counters.h"
#include "launcher_tree.h"

extern char** environ;

/* One trial's request, parsed: pointers into `payload`. */
struct request {
  char* payload;
  char** argv; /* argc entries, then NULL */
  char** envp; /* envc entries, then NULL */
  const char* working_dir;
  int log_fd;
  uint32_t counters; /* enum pz_counter bits */
};

static void free_request(struct request* req) {
  free(req->payload);
  free(req->argv);
  free(req->envp);
  if (req->log_fd >= 0) close(req->log_fd);
}

/* Reads exactly `size` bytes; 0 at a clean end of the stream before the first byte, -1 on error. */
static ssize_t read_fully(int fd, char* into, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = read(fd, into + done, size - done);
    if (n < 0 && errno == EINTR && !launcher_parent_gone) continue;
    if (n <= 0) return done == 0 && n == 0 ? 0 : -1;
    done += (size_t)n;
  }
  return (ssize_t)done;
}

/* What came with the header in the same receive: the payload's first bytes (all of it, for a
   command line and environment of usual size: one system call a trial, not two). */
static char early_payload[64 * 1024];
static size_t early_payload_bytes;

/* Receives the header and the log descriptor sent with it; 0 at the end of the stream (the harness
   closed it), -1 on a malformed request, 1 otherwise. */
static int receive_header(int sock, struct pz_launch_request* header, int* log_fd) {
  union {
    char buffer[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } control;
  struct iovec iov[2] = {{header, sizeof *header}, {early_payload, sizeof early_payload}};
  struct msghdr msg;
  memset(&msg, 0, sizeof msg);
  early_payload_bytes = 0;
  msg.msg_iov = iov;
  msg.msg_iovlen = 2;
  msg.msg_control = control.buffer;
  msg.msg_controllen = sizeof control.buffer;
  ssize_t n;
  do {
    n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR && !launcher_parent_gone);
  if (n == 0) return 0;
  if (n < 0) return -1;
  const struct cmsghdr* c = CMSG_FIRSTHDR(&msg);
  if (c != NULL && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) memcpy(log_fd, CMSG_DATA(c), sizeof(int));
  if ((size_t)n < sizeof *header && read_fully(sock, (char*)header + n, sizeof *header - (size_t)n) <= 0) return -1;
  if ((size_t)n > sizeof *header) early_payload_bytes = (size_t)n - sizeof *header;
  return header->magic == PZ_LAUNCH_MAGIC && *log_fd >= 0 ? 1 : -1;
}

/* Splits the payload into its NUL-terminated strings; -1 when their count is not the announced one. */
static int split_payload(const struct pz_launch_request* header, struct request* req) {
  const size_t strings = 1 + (size_t)header->argc + (size_t)header->envc;
  if (header->argc < 1 || strings > header->payload_bytes) return -1;
  req->argv = calloc(header->argc + 1, sizeof(char*));
  req->envp = calloc(header->envc + 1, sizeof(char*));
  if (req->argv == NULL || req->envp == NULL) return -1;
  char* p = req->payload;
  char* const end = req->payload + header->payload_bytes;
  for (size_t i = 0; i < strings; ++i) {
    char* nul = memchr(p, '\0', (size_t)(end - p));
    if (nul == NULL) return -1;
    if (i == 0)
      req->working_dir = p;
    else if (i <= header->argc)
      req->argv[i - 1] = p;
    else
      req->envp[i - 1 - header->argc] = p;
    p = nul + 1;
  }
  return p == end ? 0 : -1;
}

/* Sleeps until a request (or the end of the stream) is there. Not in a blocking recvmsg: that sleeps
   on the socket's one wait queue for any event, and the harness reading the previous trial's reply
   frees buffer space, which woke this process for nothing, on the harness's CPU, where it was still
   queued when the request came and had to wait for that CPU (perf sched: a wake-up a trial fewer).
   poll() waits for input alone. */
static void wait_for_request(int sock) {
  struct pollfd in = {sock, POLLIN, 0};
  while (poll(&in, 1, -1) < 0 && errno == EINTR && !launcher_parent_gone) {
  }
}

static int read_request(int sock, struct request* req) {
  struct pz_launch_request header;
  memset(req, 0, sizeof *req);
  req->log_fd = -1;
  wait_for_request(sock);
  if (launcher_parent_gone) return 0; /* the harness is gone: nothing more will come */
  const int got = receive_header(sock, &header, &req->log_fd);
  if (got <= 0) return got;
  if (header.payload_bytes == 0 || header.payload_bytes > PZ_LAUNCH_MAX_PAYLOAD) return -1;
  req->counters = header.counters;
  /* More than one request's bytes: the harness sends the next request only after this one's answer. */
  if (early_payload_bytes > header.payload_bytes) return -1;
  req->payload = malloc(header.payload_bytes);
  if (req->payload == NULL) return -1;
  memcpy(req->payload, early_payload, early_payload_bytes);
  const size_t rest = header.payload_bytes - early_payload_bytes;
  if (rest > 0 && read_fully(sock, req->payload + early_payload_bytes, rest) <= 0) return -1;
  return split_payload(&header, req) == 0 ? 1 : -1;
}

static int send_reply(int sock, const struct pz_launch_reply* reply) {
  /* MSG_NOSIGNAL: a harness that is gone must not kill us before we end the method's tree. */
  return send(sock, reply, sizeof *reply, MSG_NOSIGNAL) == (ssize_t)sizeof *reply ? 0 : -1;
}

/* In the vfork()ed child: the method's own process group (a terminal's Ctrl-C reaches only the
   harness, which then ends the tree), no blocked or handled signal, output to the trial's log.
   It shares this program's memory until exec, so it only makes system calls, writes no memory but
   `environ` (which run_one restores) and never returns: no stdio, no malloc. It starts with every
   signal blocked (run_one), and unblocks them only once no handler of this program is left: a
   handler run here would run on the launcher's memory (on_parent_death would end the trial). */
/* A vfork()ed child's failed chdir: written by the child into the memory it shares with this process
   until it exits, read once vfork returns (a fork()ed child writes it into a pipe instead). */
static volatile int vfork_setup_error;

static void become_method(const struct request* req, int vforked, int setup_pipe) {
  setpgid(0, 0);
  signal(SIGTERM, SIG_DFL);
  /* A closed pipe must kill the method as it would outside perfzero, whatever the harness ignores. */
  signal(SIGPIPE, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  dup2(req->log_fd, STDOUT_FILENO);
  dup2(req->log_fd, STDERR_FILENO);
  if (chdir(req->working_dir) != 0) {
    const int error = errno;
    if (vforked) {
      vfork_setup_error = error;
      _exit(126);
    }
    if (write(setup_pipe, &error, sizeof error) != (ssize_t)sizeof error) _exit(126);
    _exit(126);
  }
  environ = req->envp; /* execvp searches the PATH the method gets */
  execvp(req->argv[0], req->argv);
  /* strerrordesc_np: a constant string, where strerror may translate and allocate. */
  const char* why = strerrordesc_np(errno);
  if (why == NULL) why = "unknown error";
  const struct iovec message[] = {{(void*)"perfzero-launch: cannot run ", 28},
                                  {req->argv[0], strlen(req->argv[0])},
                                  {(void*)": ", 2},
                                  {(void*)why, strlen(why)},
                                  {(void*)"\n", 1}};
  if (writev(STDERR_FILENO, message, 5) < 0) _exit(127);
  _exit(127);
}

/* At exec, a vfork()ed child's peak RSS starts from this program's lifetime peak (a fork()ed one's from
   its current RSS): a large request's payload would raise every later trial's max_rss. Resetting the
   peak to the current RSS first gives both the same floor. */
static int reset_peak_rss(void) {
  /* Opened once: the kernel acts on each write, and an open and a close per trial cost it 10 us here. */
  static int fd = -2;
  if (fd == -2) fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  return write(fd, "5", 1) == 1 ? 0 : -1;
}

/* The reaped tree's accounting, into DONE. */
static void put_usage(const struct tree_usage* usage, struct pz_launch_reply* reply) {
  reply->wait_status = usage->child_status;
  reply->reaped_processes = usage->reaped;
  reply->leftovers_killed = usage->leftovers_killed;
  reply->maxrss_kib = usage->maxrss_kib;
  reply->user_microseconds = usage->user_microseconds;
  reply->system_microseconds = usage->system_microseconds;
  reply->run_delay_microseconds = usage->run_delay_microseconds;
  reply->voluntary_switches = usage->voluntary_switches;
  reply->involuntary_switches = usage->involuntary_switches;
  reply->minor_faults = usage->minor_faults;
  reply->major_faults = usage->major_faults;
}

/* The run's counters, open from its first trial on. */
static struct counter_set run_counters = {.dummy_fd = -1, .group_fd = -1};

/* Starts the method, reaps its tree and tells the harness. */
static int run_one(int sock, const struct request* req) {
  struct pz_launch_reply reply;
  memset(&reply, 0, sizeof reply);
  /* vfork, not fork: the child borrows this program's memory until exec instead of copying its page
     tables and taking a copy-on-write fault per page it touches, as posix_spawn does (and hyperfine,
     through it). Where the peak RSS cannot be reset (no /proc), fork keeps max_rss exact instead. */
  sigset_t all;
  sigset_t own_mask;
  sigfillset(&all);
  sigprocmask(SIG_SETMASK, &all, &own_mask);
  char** const own_environ = environ;
  const int reset = reset_peak_rss();
  /* Only a fork()ed child needs the pipe to tell a failed chdir: this process waits in vfork until
     the child has exec'd or exited, and then reads vfork_setup_error. */
  int setup[2] = {-1, -1};
  if (reset != 0 && pipe2(setup, O_CLOEXEC) != 0) setup[0] = setup[1] = -1;
  vfork_setup_error = 0;
  /* On this process, inherited by the method and enabled at its exec (launcher_counters.h). */
  counters_before_trial(&run_counters, req->counters);
  struct timespec started;
  clock_gettime(CLOCK_MONOTONIC, &started);
  const pid_t child = reset == 0 ? vfork() : fork();
  if (child == 0) become_method(req, reset == 0, setup[1]);
  const int fork_error = child < 0 ? errno : 0; /* before any other call can change it */
  environ = own_environ;
  sigprocmask(SIG_SETMASK, &own_mask, NULL);
  if (setup[1] >= 0) close(setup[1]);
  int setup_error = vfork_setup_error;
  /* EOF at exec (the pipe is close-on-exec), or the errno of a failed chdir. */
  if (child > 0 && setup[0] >= 0 && read_fully(setup[0], (char*)&setup_error, sizeof setup_error) <= 0) setup_error = 0;
  if (setup[0] >= 0) close(setup[0]);
  if (child < 0 || setup_error != 0) {
    if (child > 0) waitpid(child, NULL, 0);
    counters_after_trial(&run_counters, &reply);
    reply.kind = child < 0 ? PZ_LAUNCH_FORK_FAILED : PZ_LAUNCH_SETUP_FAILED;
    reply.error = child < 0 ? fork_error : setup_error;
    return send_reply(sock, &reply);
  }
  if (launcher_parent_gone) kill_remaining_children(); /* the harness died while we forked */
  /* No reply now: the harness sleeps until DONE, and a STARTED message would wake it while the method
     starts, on a CPU the method may need (it finds the method's pid, should it have to stop it, as this
     process's first child: perfzero-launch has no other when a trial starts). */
  /* Opened while the method runs, so that its end costs one read of it, not an open, a read and a
     close before the harness hears of it; closed once the harness has its answer. */
  const int schedstat = open_schedstat(child);
  const struct tree_usage usage = reap_tree(child, schedstat);
  struct timespec ended;
  clock_gettime(CLOCK_MONOTONIC, &ended);
  counters_after_trial(&run_counters, &reply);
  reply.wall_nanoseconds = (int64_t)(ended.tv_sec - started.tv_sec) * 1000000000LL + (ended.tv_nsec - started.tv_nsec);
  reply.kind = PZ_LAUNCH_DONE;
  reply.pid = child;
  put_usage(&usage, &reply);
  const int sent = send_reply(sock, &reply);
  if (schedstat >= 0) close(schedstat);
  return sent;
}

/* Serves trials until the harness closes the socket, goes away, or sends what it cannot read. */
static int serve(int sock) {
  for (;;) {
    struct request req;
    const int got = read_request(sock, &req);
    if (got <= 0 || launcher_parent_gone) {
      if (got < 0 && !launcher_parent_gone) {
        struct pz_launch_reply bad;
        memset(&bad, 0, sizeof bad);
        bad.kind = PZ_LAUNCH_BAD_REQUEST;
        bad.error = EPROTO;
        bad.run_delay_microseconds = -1;
        send_reply(sock, &bad);
      }
      free_request(&req);
      return got < 0 ? 2 : 0;
    }
    const int sent = run_one(sock, &req);
    free_request(&req);
    if (sent != 0 || launcher_parent_gone) return 0;
  }
}

int main(int argc, char** argv) {
  if (argc != 3 || strcmp(argv[1], "--serve") != 0) {
    fprintf(stderr, "usage: perfzero-launch --serve HARNESS_PID (started by perfzero, not by hand)\n");
    return 2;
  }
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  if (!watch_parent(strtol(argv[2], NULL, 10))) return 0; /* the harness is already gone */
  /* The socket moves off standard input so that no method inherits it; /dev/null takes its place. */
  const int sock = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
  const int null_fd = open("/dev/null", O_RDONLY);
  if (sock < 0 || null_fd < 0 || dup2(null_fd, STDIN_FILENO) < 0) {
    perror("perfzero-launch: setup");
    return 2;
  }
  if (null_fd != STDIN_FILENO) close(null_fd);
  return serve(sock);
}
