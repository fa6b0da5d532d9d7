#pragma once
// The metrics the harness makes for a command with `output: none` from its own measurements of the
// process tree, as hyperfine times any command (runner/result_source.hpp). They are the harness's
// figures, not the method's: the verdict policy (compare/gated_metrics.hpp) gates the tree's CPU time
// once, as the sum it shows for every method, rather than its user and system halves apart.
#include <array>
#include <string_view>

namespace perfzero::results {

inline constexpr const char* kUserCpuMetric = "user_cpu_seconds";      // s, summed over the tree
inline constexpr const char* kSystemCpuMetric = "system_cpu_seconds";  // s, summed over the tree
inline constexpr const char* kMaxRssMetric = "max_rss";                // bytes, largest of any one process

inline bool is_command_usage_metric(std::string_view name) {
  return name == kUserCpuMetric || name == kSystemCpuMetric || name == kMaxRssMetric;
}

}  // namespace perfzero::results
