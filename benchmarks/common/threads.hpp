#pragma once
// The `threads` parameter every multi-threaded method takes: 0 means all the CPUs this process may
// use (the affinity mask, capped by the cgroup quota: `docker run --cpus=1` means one thread).
#include "perfzero/context.hpp"
#include "perfzero/cpus.hpp"

namespace perfzero::bench {

inline int threads_param(const Context& ctx) {
  const auto requested = ctx.int_param("threads");
  return requested > 0 ? static_cast<int>(requested) : allowed_threads();
}

}  // namespace perfzero::bench
