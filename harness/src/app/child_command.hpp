#pragma once
// How a planned case becomes a child command line and environment.
#include <filesystem>

#include "config/run_plan.hpp"
#include "runner/launch_server.hpp"
#include "runner/slurm_executor.hpp"

namespace perfzero::app {

// Built-in methods run in the worker their PlannedCase names (src/method_catalog/).
struct HarnessPaths {
  std::filesystem::path launcher;    // perfzero-launch
  std::filesystem::path rank_agent;  // perfzero-rank, for methods launched by mpirun or Slurm
  std::filesystem::path mpirun;      // $PERFZERO_MPIRUN, else mpirun on the PATH; "" when neither
  runner::SlurmTools slurm;          // srun, scancel and squeue on the PATH
  std::filesystem::path salloc;      // salloc on the PATH, for --slurm_allocate
};

// Next to the running perfzero binary, unless $PERFZERO_LAUNCH (and $PERFZERO_RANK_AGENT) say otherwise.
HarnessPaths find_harness_paths();

runner::ChildCommand child_command(const config::PlannedCase& planned, const std::filesystem::path& trial_dir,
                                   int trial, const std::string& root_data_dir);

}  // namespace perfzero::app
