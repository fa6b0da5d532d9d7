#pragma once
// How many threads a benchmark may use by default: the CPUs this process may run on
// (sched_getaffinity), capped by the cgroup CPU quota, so `docker run --cpus=1` means one thread.

namespace perfzero {

int allowed_threads();

}  // namespace perfzero
