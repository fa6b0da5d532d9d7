#pragma once
// How a trial's method is executed: the seam between what one trial is (runner/execute_trial.hpp)
// and where its processes run. `local` (runner/local_executor.hpp) starts the method as one process
// tree on this host, through the run's perfzero-launch; the executors that span hosts
// (runner/mpirun_executor.hpp, runner/slurm_executor.hpp) put their launcher before the method's
// command and start it through the local one, so the run loop, the result readers and the reporters
// do not change with them.
#include <string_view>

#include "runner/trial_execution.hpp"
#include "runner/trial_runner.hpp"  // TrialRequest

namespace perfzero::runner {

class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::string_view name() const = 0;
  // Runs the request's command to its end, time-out or interruption. Never throws for anything the
  // method does; on return no process of it is left.
  virtual TrialExecution run(const TrialRequest& request) = 0;
};

}  // namespace perfzero::runner
