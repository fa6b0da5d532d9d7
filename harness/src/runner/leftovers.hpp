#pragma once
// Processes a killed run left behind. perfzero-launch ends the method's tree when the harness dies
// (PR_SET_PDEATHSIG), but a process that escaped it (a launcher killed with its harness, an older
// perfzero) could still write into trial directories that --resume has already reported.
#include <filesystem>

namespace perfzero::runner {

// SIGKILLs every process whose environment has PERFZERO_RUN_DIR=run_dir (every child gets it) and
// returns how many. Processes of other users are skipped unless we may read their environment.
int end_leftover_processes(const std::filesystem::path& run_dir);

}  // namespace perfzero::runner
