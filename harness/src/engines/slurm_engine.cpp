// `slurm`: the method's ranks as a Slurm job step (srun ... perfzero-rank), in the run's allocation
// when it holds one (runner/slurm_executor.hpp, runner/slurm_allocation.hpp).
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/program_output.hpp"
#include "common/program_path.hpp"
#include "common/text.hpp"
#include "engines/engine.hpp"
#include "runner/slurm_allocation.hpp"
#include "runner/slurm_executor.hpp"

namespace perfzero::engines {

namespace {

class SlurmEngine final : public Engine {
 public:
  SlurmEngine(runner::LocalExecutor& local, const runner::HarnessPaths& paths)
      : executor_(local, paths.slurm, paths.rank_agent) {}
  // srun hands every rank the whole environment (--export=ALL): nothing to name.
  runner::Executor& executor() override { return executor_; }

 private:
  runner::SlurmExecutor executor_;
};

// On other hosts only Slurm can end what a killed run left, and release what it held.
std::vector<std::string> clean_up_earlier(const std::filesystem::path& run_dir, const runner::HarnessPaths& paths) {
  std::vector<std::string> said;
  if (const std::string job = runner::release_leftover_allocation(run_dir, paths.slurm.scancel); !job.empty()) {
    said.push_back(fmt::format("released Slurm allocation {}, which the earlier run held", job));
  }
  if (const int cancelled = runner::cancel_leftover_steps(run_dir, paths.slurm); cancelled > 0) {
    said.push_back(fmt::format("cancelled {} Slurm step(s) the earlier run left running", cancelled));
  }
  return said;
}

// The partitions Slurm has (sinfo) and their node counts; the default one is also under "". Empty
// when sinfo cannot answer (no controller reachable from here): the run then learns it from srun.
std::map<std::string, int> slurm_partitions(const std::string& path_env) {
  std::map<std::string, int> out;
  const auto sinfo = files::find_program("sinfo", path_env);
  if (sinfo.empty()) return out;
  const auto answer =
      files::run_program({sinfo.string(), "--noheader", "--summarize", "--format=%P %D"}, std::chrono::seconds(20));
  if (!answer.ok()) return out;
  for (const auto& line : text::split(answer.out, '\n')) {
    const auto fields = text::split(text::trim(line), ' ');
    if (fields.size() != 2 || fields[0].empty()) continue;
    std::string name = fields[0];
    int nodes = 0;
    std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), nodes);
    if (name.back() == '*') {
      name.pop_back();
      out[""] = nodes;
    }
    out[name] = nodes;
  }
  return out;
}

// What Slurm can refuse before the run is said now: no such partition, more nodes than it has, more
// than the allocation perfzero runs in.
void check_slurm_case(const config::PlannedCase& c, const std::map<std::string, int>& partitions) {
  const auto& l = c.launch;
  if (const char* in = std::getenv("SLURM_JOB_NUM_NODES")) {
    int allocated = 0;
    std::from_chars(in, in + std::strlen(in), allocated);
    if (allocated > 0 && l.nodes > allocated) {
      throw ConfigError(fmt::format("{}: launch: nodes: {}, but the Slurm allocation perfzero runs in has {}", c.origin,
                                    l.nodes, allocated));
    }
  }
  if (partitions.empty()) return;
  const auto it = partitions.find(l.partition);
  if (it == partitions.end()) {
    std::vector<std::string> names;
    for (const auto& [name, nodes] : partitions) {
      if (!name.empty()) names.push_back(name);
    }
    throw ConfigError(fmt::format("{}: launch: {}; Slurm's partitions are {}", c.origin,
                                  l.partition.empty() ? std::string("Slurm has no default partition")
                                                      : "Slurm has no partition '" + l.partition + "'",
                                  text::join(names, ", ")));
  }
  if (l.nodes > it->second) {
    throw ConfigError(fmt::format("{}: launch: nodes: {}, but Slurm's partition {} has {} node{}", c.origin, l.nodes,
                                  l.partition.empty() ? "(the default)" : l.partition, it->second,
                                  it->second == 1 ? "" : "s"));
  }
}

// Slurm's client commands here, and what Slurm can refuse before the run (sinfo asked once).
void check_slurm_plan(const std::vector<const config::PlannedCase*>& cases, const std::string& path_env) {
  for (const char* tool : {"srun", "scancel", "squeue"}) {
    if (files::find_program(tool, path_env).empty()) {
      throw ConfigError(
          fmt::format("{}: launch: engine slurm, but {} is not on the PATH (Slurm's client "
                      "commands: Debian's slurm-client)",
                      cases.front()->origin, tool));
    }
  }
  const auto partitions = slurm_partitions(path_env);
  for (const auto* c : cases) check_slurm_case(*c, partitions);
}

// --slurm_allocate: one allocation as large as the largest slurm case, in the one partition the cases
// name; none when perfzero already runs inside one. What is wrong with the plan for it is said
// before the run directory is claimed; the allocation is asked for once it is, and recorded there at
// once, so that a kill -9 from then on leaves it to --resume (clean_up_earlier).
class AllocationHold final : public RunHold {
 public:
  AllocationHold(const runner::HarnessPaths& paths, const runner::AllocationRequest& request,
                 const std::filesystem::path& run_dir, const Say& say)
      : allocation_(paths.salloc, paths.slurm.scancel, request) {
    allocation_.record_in(run_dir);
    say(fmt::format("perfzero: Slurm allocation {} granted; it is released when the run ends\n", allocation_.job()));
  }

 private:
  runner::SlurmAllocation allocation_;
};

MakeRunHold prepare_allocation(const std::vector<const config::PlannedCase*>& cases, const runner::HarnessPaths& paths,
                               const Say& say) {
  runner::AllocationRequest request;
  request.nodes = 0;
  request.tasks_per_node = 0;
  const config::PlannedCase* first = cases.front();
  for (const auto* c : cases) {
    if (c->launch.partition != first->launch.partition) {
      throw ConfigError(fmt::format("--slurm_allocate asks for one allocation, but {} names partition '{}' and {} '{}'",
                                    first->origin, first->launch.partition, c->origin, c->launch.partition));
    }
    if (!c->launch.hosts.empty()) {
      throw ConfigError(
          fmt::format("{}: launch: hosts with --slurm_allocate: Slurm picks the allocation's nodes; "
                      "name them with extra_args or drop hosts",
                      c->origin));
    }
    request.nodes = std::max(request.nodes, c->launch.nodes);
    request.tasks_per_node = std::max(request.tasks_per_node, c->launch.tasks_per_node);
    request.gpus_per_node = std::max(request.gpus_per_node, c->launch.tasks_per_node * c->launch.gpus_per_task);
  }
  if (const char* job = std::getenv("SLURM_JOB_ID"); job != nullptr && *job != '\0') {
    say(fmt::format("perfzero: --slurm_allocate: already inside Slurm allocation {}; its steps run there\n", job));
    return {};
  }
  if (paths.salloc.empty() || paths.slurm.scancel.empty()) {
    throw ConfigError("--slurm_allocate: salloc or scancel is not on the PATH (Slurm's client commands)");
  }
  request.partition = first->launch.partition;
  request.name = fmt::format("perfzero-run-{}", ::getpid());
  return [paths, request, say](const std::filesystem::path& run_dir) -> std::unique_ptr<RunHold> {
    say(fmt::format("perfzero: asking Slurm for {} node(s){} (salloc; up to {} s in the queue)\n", request.nodes,
                    request.partition.empty() ? "" : " in partition " + request.partition, request.wait.count()));
    return std::make_unique<AllocationHold>(paths, request, run_dir, say);
  };
}

}  // namespace

EngineKind slurm_engine() {
  return {
      config::LaunchEngine::slurm,
      [](const EngineSetup& setup, const config::PlannedCase& first) -> std::unique_ptr<Engine> {
        if (!setup.paths.slurm.complete()) {
          throw ConfigError(first.origin + ": launch: engine slurm, but srun, scancel or squeue is not on the PATH");
        }
        return std::make_unique<SlurmEngine>(setup.local, setup.paths);
      },
      clean_up_earlier,
      {runner::kSlurmStepFile},
      check_slurm_plan,
      prepare_allocation,
      launch_plan_text};
}

}  // namespace perfzero::engines
