// `mpirun`: the method's ranks started by mpirun on this host and the hosts a case names, each
// through perfzero-rank (runner/mpirun_executor.hpp).
#include "common/errors.hpp"
#include "engines/engine.hpp"
#include "runner/mpirun_executor.hpp"

namespace perfzero::engines {

namespace {

class MpirunEngine final : public Engine {
 public:
  MpirunEngine(runner::LocalExecutor& local, const runner::HarnessPaths& paths)
      : executor_(local, paths.mpirun, paths.rank_agent) {}
  runner::Executor& executor() override { return executor_; }

  // Ranks on other hosts see only what mpirun forwards: the harness's variables and the suite's env.
  void prepare(runner::TrialRequest& request, const config::PlannedCase& planned) const override {
    for (const auto& entry : request.command.environment) {
      const auto name = entry.substr(0, entry.find('='));
      if (name.starts_with("PERFZERO_") || planned.env.count(name) != 0) request.rank_env.push_back(name);
    }
  }

 private:
  runner::MpirunExecutor executor_;
};

}  // namespace

EngineKind mpirun_engine() {
  return {config::LaunchEngine::mpirun,
          [](const EngineSetup& setup, const config::PlannedCase& first) -> std::unique_ptr<Engine> {
            if (setup.paths.mpirun.empty()) {
              throw ConfigError(first.origin + ": launch: engine mpirun, but mpirun is not on the PATH");
            }
            return std::make_unique<MpirunEngine>(setup.local, setup.paths);
          },
          {},
          {}};
}

}  // namespace perfzero::engines
