#pragma once
// How a method's processes are started: `local` (one process tree on this host, the default),
// `mpirun` (OpenMPI starts tasks_per_node ranks on each of `nodes` hosts) or `slurm` (a Slurm job
// step: srun, inside the caller's allocation or its own), every rank under perfzero-rank. A suite's
// `launch:` and the command line's --launch give it (docs/multi-host.md).
#include <optional>
#include <string>
#include <vector>

namespace perfzero::config {

enum class LaunchEngine { local, mpirun, slurm };

struct LaunchSpec {
  LaunchEngine engine = LaunchEngine::local;
  int nodes = 1;
  int tasks_per_node = 1;
  std::vector<std::string> hosts;       // mpirun --host: the first `nodes` of them; empty: this host.
                                        // slurm --nodelist: exactly `nodes`; empty: Slurm picks
  std::string hostfile;                 // mpirun --hostfile, instead of hosts
  std::vector<std::string> extra_args;  // handed to the engine before the method's command
  int gpus_per_task = 0;                // slurm --gpus-per-task; 0: none asked for
  std::string partition;                // slurm --partition; "": the cluster's default

  int world_size() const { return nodes * tasks_per_node; }
  bool operator==(const LaunchSpec&) const = default;
};

// One layer's fields (flag > method entry > suite defaults): unset ones fall through.
struct LaunchSettings {
  std::optional<LaunchEngine> engine;
  std::optional<int> nodes;
  std::optional<int> tasks_per_node;
  std::optional<std::vector<std::string>> hosts;
  std::optional<std::string> hostfile;
  std::optional<std::vector<std::string>> extra_args;
  std::optional<int> gpus_per_task;
  std::optional<std::string> partition;
  // A suite's lists (`nodes: [1, 2, 4]`): one case per value, named `...[launch.nodes=2]` (a scaling
  // study). Empty: not swept.
  std::vector<int> nodes_sweep;
  std::vector<int> tasks_per_node_sweep;

  bool empty() const {
    return !engine && !nodes && !tasks_per_node && !hosts && !hostfile && !extra_args && !gpus_per_task && !partition &&
           nodes_sweep.empty() && tasks_per_node_sweep.empty();
  }
};

inline constexpr int kMaxLaunchNodes = 4096;
inline constexpr int kMaxTasksPerNode = 1024;
inline constexpr int kMaxGpusPerTask = 64;

// "local", "mpirun" or "slurm"; nullopt for anything else.
std::optional<LaunchEngine> launch_engine_of(const std::string& name);
const char* launch_engine_name(LaunchEngine engine);
const std::vector<std::string>& launch_keys();

// --launch=ENGINE[,key=value...], e.g. mpirun,nodes=2,tasks_per_node=4,hosts=a:b or
// slurm,nodes=3,partition=gpu. Lists (hosts, extra_args) separate their items with ':'. Throws ConfigError naming the
// part that is wrong.
LaunchSettings parse_launch_text(const std::string& text);

void apply(const LaunchSettings& layer, LaunchSpec& spec);

// What is wrong with a resolved spec ("nodes: 3, but hosts names 2"), or "" when it is whole.
std::string launch_problem(const LaunchSpec& spec);

// "mpirun, 2 nodes x 4 tasks" for progress lines and --dry_run; "local" for local.
std::string describe(const LaunchSpec& spec);

}  // namespace perfzero::config
