#include "compare/gated_metrics.hpp"

#include <regex>

#include "results/command_metrics.hpp"
#include "results/counter_metrics.hpp"
#include "results/statistics.hpp"

namespace perfzero::compare {

std::optional<double> tree_cpu_seconds(const results::Trial& trial) {
  for (const auto& m : trial.metrics) {
    if (m.name == kTreeCpuRow) return m.value;
  }
  const auto& detail = trial.process.detail;
  if (!detail.is_object()) return std::nullopt;
  const auto kernel = detail.find("kernel_rusage");
  if (kernel == detail.end() || !kernel->is_object()) return std::nullopt;
  const auto user = kernel->find("user_cpu_seconds");
  const auto system = kernel->find("system_cpu_seconds");
  if (user == kernel->end() || system == kernel->end() || !user->is_number() || !system->is_number()) {
    return std::nullopt;
  }
  return user->get<double>() + system->get<double>();
}

bool gated_by_default(std::string_view metric, Direction direction) {
  if (metric == kWallTimeRow || metric == kTreeCpuRow) return true;
  if (results::is_counter_metric(metric) || results::is_command_usage_metric(metric)) return false;
  return direction != Direction::unspecified;
}

bool tree_was_busy(const std::vector<double>& cpu_seconds, const std::vector<double>& wall_seconds) {
  const auto cpu = results::compute_stats(cpu_seconds).median;
  const auto wall = results::compute_stats(wall_seconds).median;
  return cpu && wall && *cpu >= kBusyTreeShare * *wall;
}

bool is_gated(const std::string& pattern, std::string_view metric, Direction direction) {
  if (pattern.empty()) return gated_by_default(metric, direction);
  const std::string name(metric);
  return std::regex_search(name, std::regex(pattern, std::regex::ECMAScript));
}

}  // namespace perfzero::compare
