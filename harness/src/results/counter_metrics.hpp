#pragma once
// The metrics the counters sampler adds to every trial (samplers/counters_sampler.hpp): how the CPU
// ran the method, not how fast it did its work. compare shows them and gates on them only when
// --metrics names them: a context switch more under a busy neighbour is not a regression.
#include <array>
#include <string_view>

namespace perfzero::results {

inline constexpr std::array<std::string_view, 13> kCounterMetrics{
    "task_clock",        "context_switches", "cpu_migrations",   "page_faults",  "cycles", "instructions",
    "branches",          "branch_misses",    "cache_references", "cache_misses", "ipc",    "branch_miss_percent",
    "cache_miss_percent"};

inline bool is_counter_metric(std::string_view name) {
  for (const auto m : kCounterMetrics) {
    if (m == name) return true;
  }
  return false;
}

}  // namespace perfzero::results
