#pragma once
// Where the harness's helper programs are, found once per run (session/child_command.cpp).
#include <filesystem>

#include "runner/slurm_executor.hpp"

namespace perfzero::runner {

struct HarnessPaths {
  std::filesystem::path launcher;    // perfzero-launch
  std::filesystem::path rank_agent;  // perfzero-rank, for methods launched by an engine that spans hosts
  std::filesystem::path mpirun;      // $PERFZERO_MPIRUN, else mpirun on the PATH; "" when neither
  SlurmTools slurm;                  // srun, scancel and squeue on the PATH
  std::filesystem::path salloc;      // salloc on the PATH, for --slurm_allocate
};

}  // namespace perfzero::runner
