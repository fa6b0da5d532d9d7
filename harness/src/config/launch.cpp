#include "config/launch.hpp"

#include <charconv>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"

namespace perfzero::config {

namespace {

const std::vector<std::string> kLaunchKeys{"engine",   "nodes",      "tasks_per_node", "hosts",
                                           "hostfile", "extra_args", "gpus_per_task",  "partition"};

int count_of(const std::string& key, const std::string& value, int min, int max) {
  int n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < min || n > max) {
    throw ConfigError(
        fmt::format("--launch: {} expected a whole number from {} to {}, got '{}'", key, min, max, value));
  }
  return n;
}

}  // namespace

std::optional<LaunchEngine> launch_engine_of(const std::string& name) {
  if (name == "local") return LaunchEngine::local;
  if (name == "mpirun") return LaunchEngine::mpirun;
  if (name == "slurm") return LaunchEngine::slurm;
  return std::nullopt;
}

const char* launch_engine_name(LaunchEngine engine) {
  switch (engine) {
    case LaunchEngine::mpirun:
      return "mpirun";
    case LaunchEngine::slurm:
      return "slurm";
    case LaunchEngine::local:
      break;
  }
  return "local";
}

const std::vector<std::string>& launch_keys() { return kLaunchKeys; }

LaunchSettings parse_launch_text(const std::string& text) {
  LaunchSettings out;
  const auto parts = text::split(text, ',');
  const auto engine = launch_engine_of(parts.front());
  if (!engine) {
    throw ConfigError(
        fmt::format("--launch: expected the engine first (local, mpirun or slurm), got '{}'", parts.front()));
  }
  out.engine = engine;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto eq = parts[i].find('=');
    if (eq == std::string::npos || eq == 0) {
      throw ConfigError(fmt::format("--launch: expected key=value after the engine, got '{}'", parts[i]));
    }
    const std::string key = parts[i].substr(0, eq);
    const std::string value = parts[i].substr(eq + 1);
    if (key == "nodes") {
      out.nodes = count_of(key, value, 1, kMaxLaunchNodes);
    } else if (key == "tasks_per_node") {
      out.tasks_per_node = count_of(key, value, 1, kMaxTasksPerNode);
    } else if (key == "gpus_per_task") {
      out.gpus_per_task = count_of(key, value, 0, kMaxGpusPerTask);
    } else if (key == "partition") {
      out.partition = value;
    } else if (key == "hosts") {
      out.hosts = text::split(value, ':');
    } else if (key == "hostfile") {
      out.hostfile = value;
    } else if (key == "extra_args") {
      out.extra_args = text::split(value, ':');
    } else {
      throw ConfigError(
          fmt::format("--launch: unknown key '{}'{}; the keys are nodes, tasks_per_node, hosts, "
                      "hostfile, extra_args, gpus_per_task, partition",
                      key, text::did_you_mean(key, kLaunchKeys)));
    }
  }
  return out;
}

void apply(const LaunchSettings& layer, LaunchSpec& spec) {
  if (layer.engine) spec.engine = *layer.engine;
  if (layer.nodes) spec.nodes = *layer.nodes;
  if (layer.tasks_per_node) spec.tasks_per_node = *layer.tasks_per_node;
  if (layer.hosts) spec.hosts = *layer.hosts;
  if (layer.hostfile) spec.hostfile = *layer.hostfile;
  if (layer.extra_args) spec.extra_args = *layer.extra_args;
  if (layer.gpus_per_task) spec.gpus_per_task = *layer.gpus_per_task;
  if (layer.partition) spec.partition = *layer.partition;
}

std::string launch_problem(const LaunchSpec& spec) {
  if (spec.engine == LaunchEngine::local) {
    if (spec.nodes != 1 || spec.tasks_per_node != 1) {
      return fmt::format(
          "engine local runs one process tree on this host; nodes: {} and tasks_per_node: {} need "
          "engine: mpirun or slurm",
          spec.nodes, spec.tasks_per_node);
    }
    if (!spec.hosts.empty() || !spec.hostfile.empty() || !spec.extra_args.empty() || spec.gpus_per_task != 0 ||
        !spec.partition.empty()) {
      return "engine local takes no hosts, hostfile, extra_args, gpus_per_task or partition";
    }
    return "";
  }
  for (const auto& h : spec.hosts) {
    if (h.empty() || h.find_first_of(" \t\n,:=") != std::string::npos) {
      return fmt::format("hosts: '{}' is not a host name", h);
    }
  }
  if (spec.engine == LaunchEngine::slurm) {
    if (!spec.hostfile.empty()) return "engine slurm takes no hostfile (Slurm places the ranks; hosts names the nodes)";
    if (!spec.hosts.empty() && static_cast<int>(spec.hosts.size()) != spec.nodes) {
      return fmt::format("nodes: {}, but hosts names {} (engine slurm runs on exactly the hosts named)", spec.nodes,
                         spec.hosts.size());
    }
    if (spec.partition.find_first_of(" \t\n,:=") != std::string::npos) {
      return fmt::format("partition: '{}' is not a partition name", spec.partition);
    }
    return "";
  }
  if (spec.gpus_per_task != 0 || !spec.partition.empty()) {
    return "gpus_per_task and partition need engine slurm (mpirun allocates neither)";
  }
  if (!spec.hosts.empty() && !spec.hostfile.empty()) return "give hosts or a hostfile, not both";
  if (spec.nodes > 1 && spec.hosts.empty() && spec.hostfile.empty()) {
    return fmt::format("nodes: {} needs hosts or a hostfile (without them every rank runs on this host)", spec.nodes);
  }
  if (!spec.hosts.empty() && static_cast<int>(spec.hosts.size()) < spec.nodes) {
    return fmt::format("nodes: {}, but hosts names {}", spec.nodes, spec.hosts.size());
  }
  return "";
}

std::string describe(const LaunchSpec& spec) {
  if (spec.engine == LaunchEngine::local) return "local";
  std::string out = fmt::format("{}, {} node{} x {} task{}", launch_engine_name(spec.engine), spec.nodes,
                                spec.nodes == 1 ? "" : "s", spec.tasks_per_node, spec.tasks_per_node == 1 ? "" : "s");
  if (spec.gpus_per_task != 0)
    out += fmt::format(" x {} GPU{}", spec.gpus_per_task, spec.gpus_per_task == 1 ? "" : "s");
  if (!spec.partition.empty()) out += ", partition " + spec.partition;
  return out;
}

}  // namespace perfzero::config
