#pragma once
// Launch engines as plug-ins: how a case's trials are started (`launch: {engine: ...}`,
// docs/multi-host.md). The run loop asks a run's engines for the one a case names and hands it the
// trial; it names no engine itself. An engine brings its executor (runner/executor.hpp), what its
// trials' requests need beyond every trial's, and the clean-up of what a killed attempt of the run
// left with it (--resume). Each engine is a file of this folder and one line of
// builtin_engines.cpp; docs/architecture.md ("Adding an engine") lists what else a new one touches.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "config/launch.hpp"
#include "config/plan_builder.hpp"
#include "config/run_plan.hpp"
#include "runner/executor.hpp"
#include "runner/harness_paths.hpp"
#include "runner/local_executor.hpp"

namespace perfzero::engines {

// What an engine is made with: the run's one local executor (every engine starts its launcher
// through it: one perfzero-launch, one sample clock a run) and where the harness's helpers are.
struct EngineSetup {
  runner::LocalExecutor& local;
  const runner::HarnessPaths& paths;
};

// One engine of one run, made the first time a case of the run names it.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual runner::Executor& executor() = 0;
  // What a trial's request needs beyond every trial's (the environment names every rank needs).
  virtual void prepare(runner::TrialRequest& /*request*/, const config::PlannedCase& /*planned*/) const {}
};

// What a run holds with an engine for its whole length (a Slurm allocation); released when destroyed.
class RunHold {
 public:
  virtual ~RunHold() = default;
};
// Makes the hold once the run directory is claimed (where it records what --resume must release).
using MakeRunHold = std::function<std::unique_ptr<RunHold>(const std::filesystem::path& run_dir)>;
// Lines for the person running perfzero (progress output).
using Say = std::function<void(const std::string& line)>;

struct EngineKind {
  config::LaunchEngine id = config::LaunchEngine::local;
  // Makes the run's engine; throws ConfigError naming the case (`first`, the first to name it) and
  // what is missing (a program not on the PATH).
  std::function<std::unique_ptr<Engine>(const EngineSetup&, const config::PlannedCase& first)> make;
  // --resume: ends what an earlier attempt of the run in `run_dir` left with this engine (on other
  // hosts too); returns a line for each thing it ended, said as a warning. Unset: nothing to end.
  std::function<std::vector<std::string>(const std::filesystem::path& run_dir, const runner::HarnessPaths&)>
      clean_up_earlier;
  // Files it leaves in a trial directory (a step's name): an earlier attempt's go before a new one.
  std::vector<std::string> trial_files;
  // Before the first trial: what the plan's cases of this engine need on this machine (a program on
  // `path_env`, a hostfile, what the cluster has), so that a missing one is one error, not a failed
  // trial per case. Throws ConfigError naming the case's origin. Unset: nothing to check.
  std::function<void(const std::vector<const config::PlannedCase*>& cases, const std::string& path_env)> check_plan;
  // A hold for the whole run that a command asked for (`perfzero run --slurm_allocate`): checks this
  // engine's cases for it before the run directory is claimed (throws ConfigError naming the case),
  // and returns what makes the hold, or an empty function when nothing is needed (perfzero already
  // runs inside one). Unset: the engine has no such thing.
  std::function<MakeRunHold(const std::vector<const config::PlannedCase*>& cases, const runner::HarnessPaths& paths,
                            const Say& say)>
      prepare_run;
  // The lines a dry run prints for a case of this engine, after what every case shows (each without
  // its indent or newline; no secret: the output is pasted into issues). Unset: nothing more.
  std::function<std::vector<std::string>(const config::PlannedCase& planned)> plan_text;
};

class EngineRegistry {
 public:
  // A kind registered again replaces the earlier one (a test's fake engine in place of local).
  void add(EngineKind kind);
  const EngineKind* find(config::LaunchEngine id) const;
  const std::vector<EngineKind>& kinds() const { return kinds_; }

 private:
  std::vector<EngineKind> kinds_;
};

// The engines this build has (builtin_engines.cpp: local, mpirun, slurm).
const EngineRegistry& builtin_engines();

// Each engine's check_plan over its cases of `plan`; a case naming an engine `engines` lacks is a
// ConfigError too. Commands call it on every plan they build (engines/plan_checks.cpp).
void check_plan(const std::vector<config::PlannedCase>& plan, const std::string& path_env,
                const EngineRegistry& engines = builtin_engines());
// The run-wide hold `asked_by` (the flag, for messages) asks of `engine` for `plan`: its prepare_run
// over the plan's cases of that engine. Throws UsageError when no case names the engine or the engine
// has no such thing. An empty function: nothing to hold.
MakeRunHold prepare_run(config::LaunchEngine engine, const std::string& asked_by,
                        const std::vector<config::PlannedCase>& plan, const runner::HarnessPaths& paths, const Say& say,
                        const EngineRegistry& engines = builtin_engines());
// What the case's engine adds to its dry-run text (EngineKind::plan_text); empty for an engine with none.
std::vector<std::string> plan_text(const config::PlannedCase& planned,
                                   const EngineRegistry& engines = builtin_engines());
// The `launch:` line of a multi-rank case (mpirun, slurm): its spec, hosts, hostfile and extra
// arguments, redacted.
std::vector<std::string> launch_plan_text(const config::PlannedCase& planned);
// config::build_plan(inputs), then check_plan on it with inputs.path_env.
std::vector<config::PlannedCase> build_checked_plan(const config::PlanInputs& inputs,
                                                    const EngineRegistry& engines = builtin_engines());

// The engines of one run: each made once, when the first case that names it is about to run.
class RunEngines {
 public:
  RunEngines(const EngineRegistry& registry, EngineSetup setup) : registry_(registry), setup_(setup) {}
  // Throws ConfigError when no engine is registered for the case's, or when it cannot be made.
  Engine& engine_for(const config::PlannedCase& planned);

 private:
  const EngineRegistry& registry_;
  EngineSetup setup_;
  std::map<config::LaunchEngine, std::unique_ptr<Engine>> made_;
};

}  // namespace perfzero::engines
