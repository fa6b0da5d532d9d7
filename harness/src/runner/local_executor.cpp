#include "runner/local_executor.hpp"

namespace perfzero::runner {

LocalExecutor::LocalExecutor(std::filesystem::path launcher, SamplerFactory samplers)
    : server_(std::move(launcher)), samplers_(std::move(samplers)) {}

TrialExecution LocalExecutor::run(const TrialRequest& request) {
  return run_trial(request, server_, sample_clock_,
                   samplers_ ? samplers_() : std::vector<std::unique_ptr<samplers::Sampler>>{});
}

}  // namespace perfzero::runner
