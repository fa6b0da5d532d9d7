#pragma once
// The `mpirun` executor: OpenMPI's mpirun starts the method's ranks (tasks_per_node on each of
// `nodes` hosts), each under perfzero-rank (harness/launcher/rank_main.c). mpirun itself is a local
// process tree, started and watched by the local executor; the ranks' own reports come back through
// the trial directory (which must be shared by every host: docs/multi-host.md), read by
// execute_trial once the directory is known to be intact.
#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "config/launch.hpp"
#include "runner/executor.hpp"
#include "runner/local_executor.hpp"

namespace perfzero::runner {

// How long mpirun gets, once asked to stop (time-out, Ctrl-C), to stop its ranks on every host and
// let them report, before its tree is killed.
inline constexpr std::chrono::milliseconds kRankStopGrace{10000};

class MpirunExecutor final : public Executor {
 public:
  MpirunExecutor(LocalExecutor& local, std::filesystem::path mpirun, std::filesystem::path rank_agent);
  std::string_view name() const override { return "mpirun"; }
  TrialExecution run(const TrialRequest& request) override;

 private:
  LocalExecutor& local_;
  std::filesystem::path mpirun_;
  std::filesystem::path rank_agent_;
};

// mpirun's argument list up to (and with) the rank agent: the method's argv follows it.
std::vector<std::string> mpirun_prefix(const std::filesystem::path& mpirun, const config::LaunchSpec& spec,
                                       const std::filesystem::path& rank_agent,
                                       const std::vector<std::string>& forwarded_env);

}  // namespace perfzero::runner
