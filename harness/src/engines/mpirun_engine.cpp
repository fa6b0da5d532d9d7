// `mpirun`: the method's ranks started by mpirun on this host and the hosts a case names, each
// through perfzero-rank (runner/mpirun_executor.hpp).
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/program_path.hpp"
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

// mpirun here ($PERFZERO_MPIRUN, else on the PATH: the lookup the run makes, session/child_command.cpp)
// and each case's hostfile.
void check_mpirun_plan(const std::vector<const config::PlannedCase*>& cases, const std::string& path_env) {
  const char* given = std::getenv("PERFZERO_MPIRUN");
  if (files::find_program(given != nullptr ? given : "mpirun", path_env).empty()) {
    throw ConfigError(
        fmt::format("{}: launch: engine mpirun, but {} (OpenMPI's mpirun: Debian's openmpi-bin)", cases.front()->origin,
                    given != nullptr ? fmt::format("$PERFZERO_MPIRUN ({}) is not an executable file", given)
                                     : "mpirun is not on the PATH"));
  }
  for (const auto* c : cases) {
    std::error_code ec;  // the error_code form: a name the kernel refuses is a message, not an exception
    if (!c->launch.hostfile.empty() && !std::filesystem::is_regular_file(c->launch.hostfile, ec)) {
      const bool missing = !ec || ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory;
      throw ConfigError(fmt::format("{}: launch: hostfile '{}' {}", c->origin, c->launch.hostfile,
                                    missing ? "is not a file" : "cannot be read (" + ec.message() + ")"));
    }
  }
}

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
          {},
          check_mpirun_plan,
          {},
          launch_plan_text};
}

}  // namespace perfzero::engines
