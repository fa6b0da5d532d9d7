// `local`: the method as one process tree on this host, through the run's perfzero-launch.
#include "engines/engine.hpp"

namespace perfzero::engines {

namespace {

class LocalEngine final : public Engine {
 public:
  explicit LocalEngine(runner::LocalExecutor& local) : local_(local) {}
  runner::Executor& executor() override { return local_; }

 private:
  runner::LocalExecutor& local_;
};

}  // namespace

EngineKind local_engine() {
  return {
      config::LaunchEngine::local,
      [](const EngineSetup& setup, const config::PlannedCase&) { return std::make_unique<LocalEngine>(setup.local); },
      {},
      {},
      {},
      {},
      {}};
}

}  // namespace perfzero::engines
