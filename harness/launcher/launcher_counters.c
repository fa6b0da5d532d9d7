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

/* `group`: the leader to join, or -1 to stand alone (a software counter standing alone leads the group). */
static int open_one(int counter, int user_only, int group, int grouped) {
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = kEvents[counter].type;
  attr.config = kEvents[counter].config;
  /* A member follows its leader: only the leader is disabled until the method's exec. */
  attr.disabled = group < 0;
  attr.inherit = 1;
  attr.enable_on_exec = group < 0;
  attr.exclude_hv = 1;
  attr.exclude_kernel = (uint64_t)user_only;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  if (grouped) attr.read_format |= PERF_FORMAT_GROUP;
  return (int)syscall(SYS_perf_event_open, &attr, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

static void read_counter(int fd, uint64_t data[3]) {
  data[0] = data[1] = data[2] = 0;
  if (read(fd, data, 3 * sizeof(uint64_t)) != (ssize_t)(3 * sizeof(uint64_t))) data[0] = data[1] = data[2] = 0;
}

static int is_software(int counter) { return kEvents[counter].type == PERF_TYPE_SOFTWARE; }

static void close_all(struct counter_set* set) {
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    if (set->fd[i] >= 0) close(set->fd[i]);
    set->fd[i] = -1;
    set->group_slot[i] = -1;
  }
  set->group_fd = -1;
  set->group_size = 0;
}

/* Opens every wanted counter, the software ones as one group unless `set->groups_refused`; -1 when
   the kernel's share is forbidden and it must start again for user space only. */
static int open_all(struct counter_set* set, uint32_t wanted) {
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    if ((wanted & (1u << i)) == 0) continue;
    const int grouped = is_software(i) && !set->groups_refused;
    int fd = open_one(i, set->user_only, grouped ? set->group_fd : -1, grouped);
    /* An older kernel without inherited groups refuses the leader: every counter on its own instead. */
    if (fd < 0 && errno == EINVAL && grouped && set->group_fd < 0) {
      set->groups_refused = 1;
      return -2;
    }
    /* perf_event_paranoid 2 allows a process's own user-space events only: count those, and say so. */
    if (fd < 0 && (errno == EACCES || errno == EPERM) && !set->user_only) return -1;
    set->fd[i] = fd;
    set->error[i] = fd < 0 ? (errno != 0 ? errno : EINVAL) : 0;
    if (fd >= 0 && grouped) {
      if (set->group_fd < 0) set->group_fd = fd;
      set->group_slot[i] = set->group_size++;
    }
  }
  return 0;
}

static void counters_open(struct counter_set* set, uint32_t wanted) {
  set->user_only = 0;
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    set->fd[i] = -1;
    set->group_slot[i] = -1;
    set->error[i] = (wanted & (1u << i)) != 0 ? 0 : -1;
  }
  set->group_fd = -1;
  set->group_size = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const int opened = open_all(set, wanted);
    if (opened == 0) return;
    close_all(set);
    if (opened == -1) set->user_only = 1; /* the ones opened so far counted the kernel too: all again */
  }
  /* Refused every way: none counts, and each says so rather than reading as a count of 0. */
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    if ((wanted & (1u << i)) != 0) set->error[i] = EACCES;
  }
}

/* The group's values, time enabled and time running, into each member's `into` (value, enabled, running);
   0 when the group could not be read (every member then reads 0). */
static int read_group(const struct counter_set* set, uint64_t into[PZ_COUNTERS][3]) {
  uint64_t data[3 + PZ_COUNTERS];
  const ssize_t want = (ssize_t)((3 + (size_t)set->group_size) * sizeof(uint64_t));
  const int ok =
      set->group_fd >= 0 && read(set->group_fd, data, sizeof data) == want && data[0] == (uint64_t)set->group_size;
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    if (set->group_slot[i] < 0) continue;
    into[i][0] = ok ? data[3 + set->group_slot[i]] : 0;
    into[i][1] = ok ? data[1] : 0;
    into[i][2] = ok ? data[2] : 0;
  }
  return ok || set->group_fd < 0;
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
    if (set->opened) close_all(set);
    if (set->dummy_fd < 0 && wanted != 0) set->dummy_fd = open_uninherited_dummy();
    counters_open(set, wanted);
    set->opened = 1;
    set->opened_mask = wanted;
  }
  set->group_read_failed = !read_group(set, set->before);
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    if (set->fd[i] >= 0 && set->group_slot[i] < 0) read_counter(set->fd[i], set->before[i]);
  }
}

void counters_after_trial(struct counter_set* set, struct pz_launch_reply* reply) {
  reply->counters_user_only = set->user_only;
  uint64_t now[PZ_COUNTERS][3];
  if (!read_group(set, now)) set->group_read_failed = 1;
  for (int i = 0; i < PZ_COUNTERS; ++i) {
    reply->counter_values[i] = 0;
    reply->counter_running_ppm[i] = 0;
    reply->counter_errors[i] = set->error[i];
    if (set->fd[i] < 0) continue;
    if (set->group_slot[i] >= 0 && set->group_read_failed) {
      reply->counter_errors[i] = EIO; /* not read: no count, rather than a count of 0 */
      continue;
    }
    if (set->group_slot[i] < 0) read_counter(set->fd[i], now[i]);
    /* value, time enabled, time running: what this trial added */
    const uint64_t data[3] = {now[i][0] - set->before[i][0], now[i][1] - set->before[i][1],
                              now[i][2] - set->before[i][2]};
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
