#define _GNU_SOURCE
#include "launcher_counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
  uint32_t type;
  uint64_t config;
} kEvents[PZ_COUNTERS] = {
    [PZ_COUNTER_TASK_CLOCK] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    [PZ_COUNTER_CONTEXT_SWITCHES] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    [PZ_COUNTER_CPU_MIGRATIONS] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    [PZ_COUNTER_PAGE_FAULTS] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    [PZ_COUNTER_CYCLES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    [PZ_COUNTER_INSTRUCTIONS] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    [PZ_COUNTER_BRANCHES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    [PZ_COUNTER_BRANCH_MISSES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    [PZ_COUNTER_CACHE_REFERENCES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    [PZ_COUNTER_CACHE_MISSES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
};

static int open_one(int counter, int user_only) {
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = kEvents[counter].type;
  attr.config = kEvents[counter].config;
  attr.disabled = 1;
  attr.inherit = 1;
  attr.enable_on_exec = 1;
  attr.exclude_hv = 1;
  attr.exclude_kernel = (uint64_t)user_only;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static void read_counter(int fd, uint64_t data[3]) {
  data[0] = data[1] = data[2] = 0;
  if (read(fd, data, 3 * sizeof(uint64_t)) != (ssize_t)(3 * sizeof(uint64_t))) data[0] = data[1] = data[2] = 0;
}

static void counters_open(struct counter_set* set, uint32_t wanted) {
  set->user_only = 0;
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    set->fd[i] = -1;
    set->error[i] = (wanted & (1u << i)) != 0 ? 0 : -1;
  }
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    if (set->error[i] != 0) continue;
    int fd = open_one(i, set->user_only);
    /* perf_event_paranoid 2 allows a process's own user-space events only: count those, and say so. */
    if (fd < 0 && (errno == EACCES || errno == EPERM) && !set->user_only) {
      fd = open_one(i, 1);
      if (fd >= 0) {
        set->user_only = 1;
        for (int j = 0; j < i; ++j) { /* the ones opened so far count the kernel too: reopen them alike */
          if (set->fd[j] < 0) continue;
          close(set->fd[j]);
          set->fd[j] = open_one(j, 1);
          if (set->fd[j] < 0) set->error[j] = errno;
        }
      }
    }
    set->fd[i] = fd;
    if (fd < 0) set->error[i] = errno != 0 ? errno : EINVAL;
  }
}

/* One event the method does not inherit. Without it the method's perf context is a clone of this
   process's, and the kernel swaps equivalent contexts between the two tasks when one switches to the
   other (vfork does just that) instead of scheduling their events: the method's exec then enabled the
   launcher's own events, which its exit retired, and a trial read 0 for every counter (1 in 10 here). */
static int open_uninherited_dummy(void) {
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_DUMMY;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

void counters_before_trial(struct counter_set* set, uint32_t wanted) {
  if (!set->opened || set->opened_mask != wanted) {
    if (set->opened) {
      for (int i = 0; i < PZ_COUNTERS; ++i) {
        if (set->fd[i] >= 0) close(set->fd[i]);
      }
    }
    if (set->dummy_fd < 0 && wanted != 0) set->dummy_fd = open_uninherited_dummy();
    counters_open(set, wanted);
    set->opened = 1;
    set->opened_mask = wanted;
  }
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    if (set->fd[i] >= 0) read_counter(set->fd[i], set->before[i]);
  }
}

void counters_after_trial(struct counter_set* set, struct pz_launch_reply* reply) {
  reply->counters_user_only = set->user_only;
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    reply->counter_values[i] = 0;
    reply->counter_running_ppm[i] = 0;
    reply->counter_errors[i] = set->error[i];
    if (set->fd[i] < 0) continue;
    uint64_t now[3];
    read_counter(set->fd[i], now);
    /* value, time enabled, time running: what this trial added */
    const uint64_t data[3] = {now[0] - set->before[i][0], now[1] - set->before[i][1], now[2] - set->before[i][2]};
    if (data[1] == 0) {
      /* Never enabled: the method never ran (it could not be started), so nothing to count. */
      reply->counter_values[i] = (int64_t)data[0];
      reply->counter_running_ppm[i] = 1000000;
    } else if (data[2] == 0) {
      /* Enabled but never on the PMU (other events held every counter): a count of 0 would be a lie. */
      reply->counter_errors[i] = EBUSY;
    } else {
      /* Multiplexed with other events: scaled to the whole time, as perf stat does. */
      const double share = (double)data[2] / (double)data[1];
      reply->counter_values[i] = (int64_t)((double)data[0] / share + 0.5);
      reply->counter_running_ppm[i] = (int32_t)(share * 1e6 + 0.5);
    }
  }
}
