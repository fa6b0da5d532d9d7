// `slurm`: the method's ranks as a Slurm job step (srun ... perfzero-rank), in the run's allocation
// when it holds one (runner/slurm_executor.hpp, runner/slurm_allocation.hpp).
#include <fmt/format.h>

#include "common/errors.hpp"
#include "engines/engine.hpp"
#include "runner/slurm_allocation.hpp"
#include "runner/slurm_executor.hpp"

namespace perfzero::engines {

namespace {

class SlurmEngine final : public Engine {
 public:
  SlurmEngine(runner::LocalExecutor& local, const runner::HarnessPaths& paths)
      : executor_(local, paths.slurm, paths.rank_agent) {}
  // srun hands every rank the whole environment (--export=ALL): nothing to name.
  runner::Executor& executor() override { return executor_; }

 private:
  runner::SlurmExecutor executor_;
};

// On other hosts only Slurm can end what a killed run left, and release what it held.
std::vector<std::string> clean_up_earlier(const std::filesystem::path& run_dir, const runner::HarnessPaths& paths) {
  std::vector<std::string> said;
  if (const std::string job = runner::release_leftover_allocation(run_dir, paths.slurm.scancel); !job.empty()) {
    said.push_back(fmt::format("released Slurm allocation {}, which the earlier run held", job));
  }
  if (const int cancelled = runner::cancel_leftover_steps(run_dir, paths.slurm); cancelled > 0) {
    said.push_back(fmt::format("cancelled {} Slurm step(s) the earlier run left running", cancelled));
  }
  return said;
}

}  // namespace

EngineKind slurm_engine() {
  return {
      config::LaunchEngine::slurm,
      [](const EngineSetup& setup, const config::PlannedCase& first) -> std::unique_ptr<Engine> {
        if (!setup.paths.slurm.complete()) {
          throw ConfigError(first.origin + ": launch: engine slurm, but srun, scancel or squeue is not on the PATH");
        }
        return std::make_unique<SlurmEngine>(setup.local, setup.paths);
      },
      clean_up_earlier,
      {runner::kSlurmStepFile}};
}

}  // namespace perfzero::engines
