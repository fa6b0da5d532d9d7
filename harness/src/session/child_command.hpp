#pragma once
// How a planned case becomes a child command line and environment.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config/run_plan.hpp"
#include "runner/harness_paths.hpp"
#include "runner/launch_server.hpp"

namespace perfzero::session {

// Built-in methods run in the worker their PlannedCase names (src/method_catalog/).
using HarnessPaths = runner::HarnessPaths;

// Next to the running perfzero binary, unless $PERFZERO_LAUNCH (and $PERFZERO_RANK_AGENT) say otherwise.
HarnessPaths find_harness_paths();

// The harness's own environment, which every child inherits, as NAME -> value: parsed again only when
// it changed (a Slurm allocation sets SLURM_JOB_ID during a run), not for every trial.
class InheritedEnvironment {
 public:
  const std::map<std::string, std::string>& now();

 private:
  std::vector<const char*> seen_;  // environ's entries when last parsed: setenv and unsetenv change them
  std::map<std::string, std::string> parsed_;
};

runner::ChildCommand child_command(const config::PlannedCase& planned, const std::filesystem::path& trial_dir,
                                   int trial, const std::string& root_data_dir, InheritedEnvironment& inherited);

}  // namespace perfzero::session
