#pragma once
// How a trial's method is executed: the seam between what one trial is (runner/execute_trial.hpp)
// and where its processes run. `local` starts the method as one process tree on this host, through
// the run's perfzero-launch; executors that span hosts (mpirun, Slurm: issue 21) come behind the same
// interface, so the run loop, the result readers and the reporters do not change with them.
#include <filesystem>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "runner/launch_server.hpp"
#include "runner/trial_runner.hpp"
#include "samplers/monitor.hpp"
#include "samplers/sampler.hpp"

namespace perfzero::runner {

class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::string_view name() const = 0;
  // Runs the request's command to its end, time-out or interruption. Never throws for anything the
  // method does; on return no process of it is left.
  virtual TrialExecution run(const TrialRequest& request) = 0;
};

// The samplers one trial is watched by, made fresh for each trial just before its launch.
using SamplerFactory = std::function<std::vector<std::unique_ptr<samplers::Sampler>>()>;

class LocalExecutor final : public Executor {
 public:
  explicit LocalExecutor(std::filesystem::path launcher, SamplerFactory samplers = samplers::make_builtin_samplers);
  std::string_view name() const override { return "local"; }
  TrialExecution run(const TrialRequest& request) override;

 private:
  // One perfzero-launch for the whole run: a trial then costs one program start, not two.
  LaunchServer server_;
  // One monitor thread for the whole run, for the same reason.
  samplers::Monitor monitor_;
  SamplerFactory samplers_;
};

}  // namespace perfzero::runner
