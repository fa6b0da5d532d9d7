#pragma once
// How a planned case becomes a child command line and environment.
#include <filesystem>

#include "config/run_plan.hpp"
#include "runner/harness_paths.hpp"
#include "runner/launch_server.hpp"

namespace perfzero::session {

// Built-in methods run in the worker their PlannedCase names (src/method_catalog/).
using HarnessPaths = runner::HarnessPaths;

// Next to the running perfzero binary, unless $PERFZERO_LAUNCH (and $PERFZERO_RANK_AGENT) say otherwise.
HarnessPaths find_harness_paths();

runner::ChildCommand child_command(const config::PlannedCase& planned, const std::filesystem::path& trial_dir,
                                   int trial, const std::string& root_data_dir);

}  // namespace perfzero::session
