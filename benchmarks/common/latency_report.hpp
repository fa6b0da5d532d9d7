#pragma once
// The latency figures every family that keeps a LatencyHistogram reports, under the same names,
// units and direction: latency_mean_us, latency_p50_us, latency_p99_us, latency_p99_9_us.
#include "common/latency_histogram.hpp"
#include "perfzero/benchmark.hpp"

namespace perfzero::bench {

inline void report_latency(Context& ctx, const LatencyHistogram& h) {
  ctx.report("latency_mean_us", h.mean_ns() / 1e3, "us", Direction::lower_is_better);
  ctx.report("latency_p50_us", h.percentile_ns(0.50) / 1e3, "us", Direction::lower_is_better);
  ctx.report("latency_p99_us", h.percentile_ns(0.99) / 1e3, "us", Direction::lower_is_better);
  ctx.report("latency_p99_9_us", h.percentile_ns(0.999) / 1e3, "us", Direction::lower_is_better);
}

}  // namespace perfzero::bench
