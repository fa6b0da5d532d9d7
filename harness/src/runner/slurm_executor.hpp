#pragma once
// The `slurm` executor: a Slurm job step (srun) starts the method's ranks, tasks_per_node on each of
// `nodes` hosts, each under perfzero-rank; inside the caller's allocation when perfzero runs in one
// ($SLURM_JOB_ID: salloc, sbatch, --slurm_allocate), else as a job of its own. srun is a local process
// tree, started and watched by the local executor; what only Slurm knows (a refused request, a lost
// node) is read from srun's own lines in the trial's log. A step that srun did not end itself
// (time-out, interruption, a lost node) is cancelled with scancel, and the trial ends only once Slurm
// reports it gone from every host (docs/multi-host.md).
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/launch.hpp"
#include "runner/executor.hpp"
#include "runner/local_executor.hpp"

namespace perfzero::runner {

struct SlurmTools {
  std::filesystem::path srun, scancel, squeue;
  bool complete() const { return !srun.empty() && !scancel.empty() && !squeue.empty(); }
};

// srun, scancel and squeue as found on `path_env`; a missing one is "".
SlurmTools find_slurm_tools(const std::string& path_env);

// Which step a trial started, kept in its directory (kSlurmStepFile) until Slurm reports it gone, so
// that --resume after a killed run can cancel what the run left on the cluster.
struct SlurmStep {
  std::string job;   // the allocation the step ran in; "" when it was a job of its own
  std::string name;  // --job-name: the step's name in the allocation, or its own job's name
};

inline constexpr const char* kSlurmStepFile = "slurm_step";

class SlurmExecutor final : public Executor {
 public:
  SlurmExecutor(LocalExecutor& local, SlurmTools tools, std::filesystem::path rank_agent);
  std::string_view name() const override { return "slurm"; }
  TrialExecution run(const TrialRequest& request) override;

 private:
  LocalExecutor& local_;
  SlurmTools tools_;
  std::filesystem::path rank_agent_;
  int steps_started_ = 0;
};

// srun's argument list up to (and with) the rank agent: the method's argv follows it.
std::vector<std::string> srun_prefix(const std::filesystem::path& srun, const config::LaunchSpec& spec,
                                     const std::string& step_name, const std::filesystem::path& rank_agent);

// What srun's own lines in the trial's log say of a step that did not succeed: Slurm refused it
// (skipped, with Slurm's reason) or lost a node (failed, naming it); nullopt when they say neither.
std::optional<EngineVerdict> read_srun_verdict(std::string_view log);

// --resume: cancels every step an earlier run of `run_dir` left (the trial directories' kSlurmStepFile)
// and returns how many were still known to Slurm.
int cancel_leftover_steps(const std::filesystem::path& run_dir, const SlurmTools& tools);

}  // namespace perfzero::runner
