#pragma once
// How a planned case becomes a child command line and environment.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
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
  // Changes each time now() parsed the environment again.
  std::uint64_t generation() const { return generation_; }

 private:
  std::vector<const char*> seen_;  // environ's entries when last parsed: setenv and unsetenv change them
  std::map<std::string, std::string> parsed_;
  std::uint64_t generation_ = 0;
};

// The environments of a case's trials: the inherited environment merged, in name order, with the
// suite's and the harness's variables once per case (and again when the inherited one changed); a
// trial then sets only its own values (its directory, number and attempt). Merging every variable
// for every trial was a tenth of the harness's own time per trial of a short command.
class ChildEnvironments {
 public:
  std::vector<std::string> of_trial(const config::PlannedCase& planned, const std::filesystem::path& trial_dir,
                                    int trial, const std::string& root_data_dir);

 private:
  struct Merged {
    const config::PlannedCase* planned = nullptr;
    std::string name;
    bool external = false;
    std::map<std::string, std::string> suite_env;  // what the case set, so a case that changed is seen
    ParamMap params;
    std::uint64_t inherited_generation = 0;
    std::string run_dir;
    std::string root_data_dir;
    std::vector<std::string> environment;      // NAME=value, per-trial values empty
    std::vector<std::size_t> per_trial_slots;  // where each of kPerTrial's variables is in it
  };
  void merge(const config::PlannedCase& planned, const std::string& run_dir, const std::string& root_data_dir);
  InheritedEnvironment inherited_;
  std::optional<Merged> merged_;
};

runner::ChildCommand child_command(const config::PlannedCase& planned, const std::filesystem::path& trial_dir,
                                   int trial, const std::string& root_data_dir, ChildEnvironments& environments);

}  // namespace perfzero::session
