// engines::check_plan (engines/plan_checks.cpp): each engine checks its own cases of a plan before
// the first trial, and a case naming an engine the registry lacks is an error naming the case.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/errors.hpp"
#include "engines/engine.hpp"

namespace perfzero::engine_plan_checks_test {
namespace {

config::PlannedCase case_of(const std::string& name, config::LaunchEngine engine) {
  config::PlannedCase c;
  c.name = name;
  c.origin = "suite.yaml:" + name;
  c.launch.engine = engine;
  return c;
}

// A kind that writes down which cases it was asked to check, and refuses one named "bad".
engines::EngineKind recording_kind(config::LaunchEngine id, std::vector<std::string>& seen) {
  engines::EngineKind kind;
  kind.id = id;
  kind.check_plan = [&seen](const std::vector<const config::PlannedCase*>& cases, const std::string& path_env) {
    for (const auto* c : cases) {
      seen.push_back(std::string(config::launch_engine_name(c->launch.engine)) + ":" + c->name + "@" + path_env);
      if (c->name == "bad") throw ConfigError(c->origin + ": refused");
    }
  };
  return kind;
}

TEST(EnginePlanChecks, EachEngineChecksOnlyItsOwnCasesOnceInTheRegistrysOrder) {
  std::vector<std::string> seen;
  engines::EngineRegistry registry;
  registry.add(recording_kind(config::LaunchEngine::mpirun, seen));
  registry.add(recording_kind(config::LaunchEngine::local, seen));
  const std::vector<config::PlannedCase> plan = {case_of("a", config::LaunchEngine::local),
                                                 case_of("b", config::LaunchEngine::mpirun),
                                                 case_of("c", config::LaunchEngine::local)};
  engines::check_plan(plan, "/opt/bin", registry);
  EXPECT_EQ(seen, (std::vector<std::string>{"mpirun:b@/opt/bin", "local:a@/opt/bin", "local:c@/opt/bin"}));
}

TEST(EnginePlanChecks, ARefusalAndAnEngineThisBuildLacksNameTheCase) {
  std::vector<std::string> seen;
  engines::EngineRegistry registry;
  registry.add(recording_kind(config::LaunchEngine::local, seen));
  try {
    engines::check_plan({case_of("bad", config::LaunchEngine::local)}, "", registry);
    ADD_FAILURE() << "a refused case must throw";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "suite.yaml:bad: refused");
  }
  try {
    engines::check_plan({case_of("x", config::LaunchEngine::local), case_of("s", config::LaunchEngine::slurm)}, "",
                        registry);
    ADD_FAILURE() << "an engine the registry lacks must throw";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "suite.yaml:s: launch: engine slurm: this build has no such engine");
  }
}

TEST(EnginePlanChecks, AnEngineWithoutACheckIsLeftAlone) {
  engines::EngineRegistry registry;
  engines::EngineKind local;
  local.id = config::LaunchEngine::local;
  registry.add(local);
  EXPECT_NO_THROW(engines::check_plan({case_of("a", config::LaunchEngine::local)}, "", registry));
}

}  // namespace
}  // namespace perfzero::engine_plan_checks_test
