#pragma once
// What the plan's launch engines need on this machine, checked before the first trial so that a
// missing mpirun or a partition Slurm does not have is one error, not a failed trial per case.
#include <string>
#include <vector>

#include "config/run_plan.hpp"

namespace perfzero::config {

// Throws ConfigError naming the case's origin. `path_env`: the PATH the engines are looked up on.
void check_engines(const std::vector<PlannedCase>& cases, const std::string& path_env);

}  // namespace perfzero::config
