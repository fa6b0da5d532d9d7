#include "perfzero/cpus.hpp"

#include <sched.h>

#include <algorithm>
#include <cmath>

#include "sysinfo/system_info.hpp"

namespace perfzero {

int allowed_threads() {
  cpu_set_t set;
  CPU_ZERO(&set);
  int cpus = ::sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 1;
  const auto limits = sysinfo::read_cgroup_limits(sysinfo::Paths{});
  // A quota of 1.5 CPUs runs 2 threads at 75 %: round up, as the work still fits the quota.
  if (limits.cpu_quota_cpus) cpus = std::min(cpus, static_cast<int>(std::ceil(*limits.cpu_quota_cpus)));
  return std::max(1, cpus);
}

}  // namespace perfzero
