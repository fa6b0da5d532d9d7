#pragma once
// One run from its output directory to its last write: claims the directory (ending what an earlier
// attempt left running when resuming), records the machine and the plan, keeps room for the final
// writes, and holds the recorder and the run loop. `perfzero run` drives one; `perfzero ab` two.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/trusted_root.hpp"
#include "config/run_plan.hpp"
#include "nvml/gpu_clock_lock.hpp"
#include "results/recorder.hpp"
#include "results/run_status.hpp"
#include "session/output_dir.hpp"
#include "session/run_loop.hpp"
#include "session/session_settings.hpp"

namespace perfzero::session {

class RunSession {
 public:
  // Throws UsageError for a bad --report name, an output directory that holds another run, a
  // --resume whose plan differs from the run's, or --lock_gpu_clocks that cannot lock.
  // `engines`: what starts each case's trials (engines/engine.hpp); a test gives its own.
  RunSession(const SessionSettings& settings, const HarnessPaths& paths, const std::vector<config::PlannedCase>& plan,
             const std::vector<config::Comparison>& comparisons, std::FILE* progress_out = stdout,
             const engines::EngineRegistry& engines = engines::builtin_engines());
  ~RunSession();
  RunSession(const RunSession&) = delete;
  RunSession& operator=(const RunSession&) = delete;

  RunLoop& loop() { return *loop_; }
  const results::Run& run() const { return recorder_->run(); }
  // The last use of the session in a command about to exit (results/recorder.hpp).
  void leave_model_to_exit() { recorder_->leave_model_to_exit(); }
  const ClaimedOutput& output() const { return output_; }

  // Ends the run with `status` (completed, interrupted, aborted): the reserve goes, the journal,
  // run.json and every output are written. The first write refused, if any. A stop signal that came
  // after the last trial (while these were written) leaves them whole and makes a completed run
  // interrupted_after_completion: late_signal() then names it.
  std::optional<std::string> finish(const results::RunStatus& status);
  std::optional<int> late_signal() const { return late_signal_; }

 private:
  // First, so it is released last: the GPUs stay locked until every trial and output is done.
  std::unique_ptr<nvml::GpuClockLock> clock_lock_;
  ClaimedOutput output_;
  // Every file written under the run directory goes through it, no link followed (common/trusted_root.hpp).
  std::unique_ptr<files::TrustedRoot> root_;
  std::unique_ptr<results::Recorder> recorder_;
  std::unique_ptr<RunLoop> loop_;
  std::filesystem::path reserve_;
  bool finished_ = false;
  std::optional<int> late_signal_;
};

}  // namespace perfzero::session
