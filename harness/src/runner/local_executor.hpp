#pragma once
// The `local` executor: the method as one process tree on this host, started by the run's
// perfzero-launch and watched on the run's sample clock by the samplers it is given.
#include <filesystem>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "runner/executor.hpp"
#include "runner/launch_server.hpp"
#include "samplers/sample_clock.hpp"
#include "samplers/sampler.hpp"

namespace perfzero::runner {

// The samplers one trial is watched by, made fresh for each trial just before its launch.
using SamplerFactory = std::function<std::vector<std::unique_ptr<samplers::Sampler>>()>;

class LocalExecutor final : public Executor {
 public:
  // `samplers` makes each trial's samplers: the built-ins with the run's settings unless given.
  explicit LocalExecutor(std::filesystem::path launcher, SamplerFactory samplers);
  std::string_view name() const override { return "local"; }
  TrialExecution run(const TrialRequest& request) override;

 private:
  // One perfzero-launch for the whole run: a trial then costs one program start, not two.
  LaunchServer server_;
  // One sample clock (one thread) for the whole run, for the same reason.
  samplers::SampleClock sample_clock_;
  SamplerFactory samplers_;
};

}  // namespace perfzero::runner
