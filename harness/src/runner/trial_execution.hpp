#pragma once
// What happened to one child process, before its result file is read.
#include <optional>
#include <string>

#include <utility>
#include <vector>

#include "child_results/rank_reports.hpp"
#include "common/outcome.hpp"
#include "samplers/process_tree_sampler.hpp"
#include "samplers/sampler.hpp"

namespace perfzero::runner {

// launcher_lost: perfzero-launch died while the method ran (killed from outside); launch_error says how.
// engine_failed: the engine that spans the hosts said the method's step failed (Slurm lost a node)
// and the harness stopped it, as for a time-out; engine_error says what the engine said.
enum class ProcessEnd { exited, signaled, timed_out, interrupted, launch_failed, launcher_lost, engine_failed };

// What an engine itself said of a step that did not succeed, where it knows more than the ranks can:
// Slurm refused the request (skipped, with Slurm's reason) or lost a node (failed, naming it).
struct EngineVerdict {
  Outcome outcome = Outcome::failed;
  std::string detail;
  // Believed only when no rank started: the engine refused, or could not start, the step (the method
  // writes to the same log, and a rank that reported proves it did start).
  bool only_when_nothing_ran = false;
};

// The kernel's own accounting of the tree, sent by perfzero-launch after it reaped everything.
struct KernelUsage {
  std::uint64_t max_rss_bytes = 0;  // largest ru_maxrss of any process in the tree
  double user_seconds = 0.0;
  double system_seconds = 0.0;
  int reaped_processes = 0;
  int leftovers_killed = 0;  // what the method left running when its main process ended, killed by the launcher
  // How long the tree's processes (their main threads) waited for a CPU on a run queue; nullopt when
  // /proc/PID/schedstat could not be read (a kernel without schedstats).
  std::optional<double> run_queue_seconds;
  // The tree's wall time as perfzero-launch measured it (just before the fork to the tree reaped).
  std::optional<double> wall_seconds;
  // What perf_event_open counted over the tree from the method's exec, and the tree's rusage.
  samplers::CounterReadings counters;
};

struct TrialExecution {
  ProcessEnd end = ProcessEnd::launch_failed;
  int exit_code = 0;          // when exited
  int signal = 0;             // when signaled; the stop signal when interrupted
  std::string launch_error;   // when launch_failed or launcher_lost
  std::string engine_error;   // when engine_failed
  double wall_seconds = 0.0;  // from launch to the end of the child's tree (the launcher's clock when it answered)
  bool harness_stalled = false;
  bool stopped_in_grace = false;  // timed out or interrupted, it ended within its stop_grace after SIGTERM  // the
                                  // harness was stopped while the method ran: its own clock ran on
  std::optional<KernelUsage> kernel;
  samplers::TreeResult tree;       // the process-tree sampler's typed result (PerfZero's process_info)
  double monitor_cpu_seconds = 0;  // CPU the monitor's thread used, all samplers together
  std::vector<std::pair<std::string, samplers::SamplerOutput>> samplers;  // every sampler, process tree first
  int leftover_processes_killed = 0;    // stragglers ended after the main process exited or timed out
  std::uint64_t log_bytes_dropped = 0;  // cut from the middle of perfzero.log (runner/log_cap.hpp)
  // A multi-rank method's ranks (launch: mpirun): the world it asked for and what each rank said of
  // its end. world_size 0: a local method.
  int world_size = 0;
  std::string engine;  // what started them: "mpirun" or "slurm"
  // The engine's daemons, not the launcher's tree, started the ranks (slurm): the CPU of those on
  // this machine is missing from the tree's and is counted as the method's afterwards.
  bool ranks_outside_tree = false;
  child_results::RankReports ranks;
  std::optional<EngineVerdict> engine_verdict;
  std::string engine_note;  // what the engine could not clean up (a step Slurm still lists), for the detail
  // TrialRequest::check_trial_dir's answer, once the executor asked it.
  std::optional<std::string> trial_dir_damage;
};

}  // namespace perfzero::runner
