#include <map>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "engines/engine.hpp"

namespace perfzero::engines {

void check_plan(const std::vector<config::PlannedCase>& plan, const std::string& path_env,
                const EngineRegistry& engines) {
  std::map<config::LaunchEngine, std::vector<const config::PlannedCase*>> by_engine;
  for (const auto& c : plan) {
    if (engines.find(c.launch.engine) == nullptr) {
      throw ConfigError(fmt::format("{}: launch: engine {}: this build has no such engine", c.origin,
                                    config::launch_engine_name(c.launch.engine)));
    }
    by_engine[c.launch.engine].push_back(&c);
  }
  // In the registry's order, so that the same plan always fails on the same first problem.
  for (const auto& kind : engines.kinds()) {
    const auto it = by_engine.find(kind.id);
    if (it != by_engine.end() && kind.check_plan) kind.check_plan(it->second, path_env);
  }
}

MakeRunHold prepare_run(config::LaunchEngine engine, const std::string& asked_by,
                        const std::vector<config::PlannedCase>& plan, const runner::HarnessPaths& paths, const Say& say,
                        const EngineRegistry& engines) {
  const std::string name(config::launch_engine_name(engine));
  const EngineKind* kind = engines.find(engine);
  if (kind == nullptr || !kind->prepare_run) {
    throw UsageError(fmt::format("{}: engine {} holds nothing for a whole run in this build", asked_by, name));
  }
  std::vector<const config::PlannedCase*> cases;
  for (const auto& c : plan) {
    if (c.launch.engine == engine) cases.push_back(&c);
  }
  if (cases.empty())
    throw UsageError(fmt::format("{}: no case of the plan has launch: {{engine: {}}}", asked_by, name));
  return kind->prepare_run(cases, paths, say);
}

std::vector<config::PlannedCase> build_checked_plan(const config::PlanInputs& inputs, const EngineRegistry& engines) {
  std::vector<config::PlannedCase> plan = config::build_plan(inputs);
  check_plan(plan, inputs.path_env, engines);
  return plan;
}

}  // namespace perfzero::engines
