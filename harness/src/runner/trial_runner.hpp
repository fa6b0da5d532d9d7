#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include "config/launch.hpp"
#include "runner/launch_server.hpp"
#include "runner/trial_execution.hpp"
#include "samplers/sample_clock.hpp"
#include "samplers/sampler.hpp"

namespace perfzero::runner {

// What the method left of its trial directory (session/trial_dir_guard.hpp): `damage` says what it did
// to it ("removed its trial directory", ...), "" when it is intact; `tmp_dir_untouched`: its TMPDIR was
// left empty (and, moved on to the next trial, as it was made; session/trial_tmpdirs.hpp), which the
// leftover-files sampler then need not read again.
struct TrialDirCheck {
  std::string damage;
  bool tmp_dir_untouched = false;
};

// One method to run, whatever executes it (runner/executor.hpp).
struct TrialRequest {
  ChildCommand command;
  std::filesystem::path log_path;
  std::chrono::milliseconds timeout{0};  // 0: none
  // Set when `timeout` is what is left of a budget (ab's --max_time), not the method's own time-out:
  // a trial stopped by it ends timed_out with a detail that names the budget ("stopped by ...").
  std::string timeout_cause;
  // On a time-out or a stop signal, the method's main process gets SIGTERM and this long to end its
  // tree before everything is killed: an engine (mpirun) then stops its ranks on every host, and they
  // report. 0: killed at once, as a local method is (its whole tree is here to kill).
  std::chrono::milliseconds stop_grace{0};
  std::chrono::milliseconds monitor_interval{100};
  std::uint64_t max_log_bytes = std::uint64_t{64} << 20;  // perfzero.log is cut past it (runner/log_cap.hpp)
  // Called about every 200 ms while the child runs, with the seconds elapsed (for the live bar).
  std::function<void(double)> on_tick;
  // Called as often, by an executor that spans hosts: a non-empty answer is the engine saying the
  // step failed while its launcher runs on (srun waits forever for a lost node's tasks). The method
  // is then stopped as on a time-out, and ends engine_failed with that answer.
  std::function<std::string()> engine_watch;
  // How its processes start (an executor that spans ranks reads it), the trial's directory (where
  // ranks report) and the environment names every rank needs on whatever host it lands.
  config::LaunchSpec launch;
  std::filesystem::path trial_dir;
  std::vector<std::string> rank_env;
  // Asked once, when the method has ended and before anything in the trial's directory is read (the
  // samplers' end included): what the method did to its directory. The asker puts the directory right
  // either way (the run loop's guard). The executor asks it when the tree ended (run_trial), else
  // execute_trial does. Unset: intact.
  std::function<TrialDirCheck()> check_trial_dir;
};

// The harness's clock ran on this much longer than the method (or this share of its time, if more):
// the harness was stopped while the method ran (flag harness_stalled). Above the few milliseconds the
// request and the reply take on a loaded machine.
inline constexpr double kStallSeconds = 0.25;
inline constexpr double kStallShare = 0.25;

// Runs one child on this host through `server`, watched by the process-tree sampler and `others`
// on `sample_clock`'s ticks, to its end, time-out or interruption (the local executor). Never throws for
// anything the child does; on return no process of its tree is left. The harness must be a child
// subreaper (see become_subreaper); a stop signal ends the wait when the harness blocked its
// signals (block_harness_signals).
TrialExecution run_trial(const TrialRequest& request, LaunchServer& server, samplers::SampleClock& sample_clock,
                         const std::vector<std::unique_ptr<samplers::Sampler>>& others);

void become_subreaper();
// SIGKILLs every descendant of this process and reaps them; returns how many were killed.
int kill_and_reap_all_descendants();

}  // namespace perfzero::runner
