#include "config/suite_settings.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace perfzero::config {

namespace {

// trials: auto's limits (docs/suites.md): max_noise in percent, as --max_noise takes it.
template <typename Child>
void read_auto_limits(const yaml::Checker& check, const YAML::Node& map, const Child& child, RunSettings& settings) {
  if (const auto n = map["min_trials"]) settings.min_trials = check.int_of(n, child("min_trials"), 1, 100000);
  if (const auto n = map["max_trials"]) settings.max_trials = check.int_of(n, child("max_trials"), 1, 100000);
  if (const auto n = map["min_time"]) {
    settings.min_seconds = static_cast<double>(check.duration_of(n, child("min_time")).count()) / 1000.0;
  }
  if (const auto n = map["max_time"]) {
    settings.max_seconds = static_cast<double>(check.duration_of(n, child("max_time")).count()) / 1000.0;
  }
  if (const auto n = map["max_noise"]) {
    const auto value = check.param_of(n, child("max_noise"), ParamType::number);
    const double percent = std::get<double>(value);
    if (percent <= 0 || percent > 100) {
      check.fail(n, child("max_noise"), fmt::format("expected a percentage above 0 and at most 100, got {}", percent));
    }
    settings.max_noise = percent / 100.0;
  }
}

// launch: {engine: mpirun, nodes: 2, tasks_per_node: 4, hosts: [a, b], extra_args: [...]}, or
// {engine: slurm, nodes: 3, gpus_per_task: 1, partition: gpu}
LaunchSettings read_launch(const yaml::Checker& check, const YAML::Node& map, const std::string& key) {
  check.expect_map(map, key);
  check.check_keys(map, key, launch_keys());
  LaunchSettings out;
  if (const auto n = map["engine"]) {
    out.engine = launch_engine_of(check.string_of(n, key + ".engine"));
    if (!out.engine) check.fail(n, key + ".engine", "expected local, mpirun or slurm, got " + yaml::describe(n));
  }
  // A count, or a list of counts to sweep.
  auto counts = [&](const char* name, int max, std::optional<int>& one, std::vector<int>& sweep) {
    const auto n = map[name];
    if (!n) return;
    const std::string path = key + "." + name;
    if (!n.IsSequence()) {
      one = check.int_of(n, path, 1, max);
      return;
    }
    if (n.size() == 0) check.fail(n, path, "a sweep needs at least one value");
    for (std::size_t i = 0; i < n.size(); ++i) {
      const int value = check.int_of(n[i], fmt::format("{}[{}]", path, i), 1, max);
      if (std::find(sweep.begin(), sweep.end(), value) != sweep.end()) {
        check.fail(n[i], fmt::format("{}[{}]", path, i), fmt::format("{} is already in the sweep", value));
      }
      sweep.push_back(value);
    }
  };
  counts("nodes", kMaxLaunchNodes, out.nodes, out.nodes_sweep);
  counts("tasks_per_node", kMaxTasksPerNode, out.tasks_per_node, out.tasks_per_node_sweep);
  if (const auto n = map["hosts"]) out.hosts = check.string_list_of(n, key + ".hosts");
  if (const auto n = map["hostfile"]) out.hostfile = check.string_of(n, key + ".hostfile");
  if (const auto n = map["extra_args"]) out.extra_args = check.string_list_of(n, key + ".extra_args");
  if (const auto n = map["gpus_per_task"]) {
    out.gpus_per_task = check.int_of(n, key + ".gpus_per_task", 0, kMaxGpusPerTask);
  }
  if (const auto n = map["partition"]) out.partition = check.string_of(n, key + ".partition");
  return out;
}

}  // namespace

RunSettings read_settings(const yaml::Checker& check, const YAML::Node& map, const std::string& key) {
  RunSettings settings;
  auto child = [&](const char* name) { return key.empty() ? std::string(name) : key + "." + name; };
  if (const auto n = map["trials"]) {
    if (n.IsScalar() && n.Scalar() == "auto") {
      settings.trials_auto = true;
    } else {
      settings.trials = check.int_of(n, child("trials"), 1, 100000);
    }
  }
  read_auto_limits(check, map, child, settings);
  if (const auto n = map["warmup_trials"]) settings.warmup_trials = check.int_of(n, child("warmup_trials"), 0, 100000);
  if (const auto n = map["timeout"]) settings.timeout = check.duration_of(n, child("timeout"));
  if (const auto n = map["monitor_interval_ms"]) {
    settings.monitor_interval = std::chrono::milliseconds(check.int_of(n, child("monitor_interval_ms"), 1, 3'600'000));
  }
  for (const char* name : {"max_result_bytes", "max_log_bytes"}) {
    const auto n = map[name];
    if (!n) continue;
    const int bytes = check.int_of(n, child(name), kMinByteLimit, std::numeric_limits<int>::max());
    (std::string_view(name) == "max_result_bytes" ? settings.max_result_bytes : settings.max_log_bytes) = bytes;
  }
  if (const auto n = map["env"]) settings.env = check.env_of(n, child("env"));
  if (const auto n = map["launch"]) settings.launch = read_launch(check, n, child("launch"));
  return settings;
}

}  // namespace perfzero::config
