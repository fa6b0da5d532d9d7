// engines::check_plan and engines::prepare_run (engines/plan_checks.cpp): each engine checks its own
// cases of a plan before the first trial (a case naming an engine the registry lacks is an error
// naming the case), and makes the hold a command asked of it for a whole run.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
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

// A hold that counts itself: made once the run directory is known, released at its end.
class CountedHold final : public engines::RunHold {
 public:
  explicit CountedHold(int& alive) : alive_(alive) { ++alive_; }
  ~CountedHold() override { --alive_; }
  CountedHold(const CountedHold&) = delete;
  CountedHold& operator=(const CountedHold&) = delete;

 private:
  int& alive_;
};

TEST(EnginePrepareRun, TheEngineSeesOnlyItsCasesAndItsHoldLivesUntilReleased) {
  int alive = 0;
  std::vector<std::string> seen;
  std::filesystem::path made_in;
  engines::EngineRegistry registry;
  engines::EngineKind slurm;
  slurm.id = config::LaunchEngine::slurm;
  slurm.prepare_run = [&](const std::vector<const config::PlannedCase*>& cases, const runner::HarnessPaths&,
                          const engines::Say& say) -> engines::MakeRunHold {
    for (const auto* c : cases) seen.push_back(c->name);
    say("asked\n");
    return [&](const std::filesystem::path& run_dir) -> std::unique_ptr<engines::RunHold> {
      made_in = run_dir;
      return std::make_unique<CountedHold>(alive);
    };
  };
  registry.add(slurm);
  std::string said;
  const auto make = engines::prepare_run(
      config::LaunchEngine::slurm, "--slurm_allocate",
      {case_of("a", config::LaunchEngine::local), case_of("b", config::LaunchEngine::slurm)}, runner::HarnessPaths{},
      [&](const std::string& line) { said += line; }, registry);
  EXPECT_EQ(seen, std::vector<std::string>{"b"});
  EXPECT_EQ(said, "asked\n");
  EXPECT_EQ(alive, 0) << "nothing is held before the run directory is claimed";
  ASSERT_TRUE(make);
  {
    const auto hold = make("/runs/r1");
    EXPECT_EQ(alive, 1);
    EXPECT_EQ(made_in, "/runs/r1");
  }
  EXPECT_EQ(alive, 0) << "released when the run ends";
}

TEST(EnginePrepareRun, APlanWithoutTheEnginesCasesOrAnEngineWithoutAHoldIsAUsageErrorNamingTheFlag) {
  engines::EngineRegistry registry;
  engines::EngineKind slurm;
  slurm.id = config::LaunchEngine::slurm;
  slurm.prepare_run = [](const std::vector<const config::PlannedCase*>&, const runner::HarnessPaths&,
                         const engines::Say&) { return engines::MakeRunHold{}; };
  registry.add(slurm);
  engines::EngineKind local;
  local.id = config::LaunchEngine::local;
  registry.add(local);
  const auto said = [](const std::string&) {};
  try {
    static_cast<void>(engines::prepare_run(config::LaunchEngine::slurm, "--slurm_allocate",
                                           {case_of("a", config::LaunchEngine::local)}, {}, said, registry));
    ADD_FAILURE() << "no slurm case must throw";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--slurm_allocate: no case of the plan has launch: {engine: slurm}");
  }
  try {
    static_cast<void>(engines::prepare_run(config::LaunchEngine::local, "--hold",
                                           {case_of("a", config::LaunchEngine::local)}, {}, said, registry));
    ADD_FAILURE() << "an engine without prepare_run must throw";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--hold: engine local holds nothing for a whole run in this build");
  }
}

// The dry run's text (engines::plan_text): each engine says what of its cases shows; the local engine
// adds nothing, the multi-rank ones their launch line with no secret in it.
TEST(EnginePlanText, EachEngineSaysItsOwnLinesAndNoSecret) {
  EXPECT_TRUE(engines::plan_text(case_of("here", config::LaunchEngine::local)).empty());
  auto mpi = case_of("ranks", config::LaunchEngine::mpirun);
  mpi.launch.nodes = 2;
  mpi.launch.hosts = {"h1", "h2"};
  mpi.launch.extra_args = {"--mca", "x", "--password=hunter2"};
  const auto lines = engines::plan_text(mpi);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0].rfind("launch: ", 0), 0U) << lines[0];
  EXPECT_NE(lines[0].find("hosts h1 h2"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].find("hunter2"), std::string::npos) << lines[0];
  auto slurm = case_of("steps", config::LaunchEngine::slurm);
  slurm.launch.nodes = 3;
  EXPECT_EQ(engines::plan_text(slurm), engines::launch_plan_text(slurm));

  engines::EngineRegistry registry;
  engines::EngineKind kind;
  kind.id = config::LaunchEngine::local;
  kind.plan_text = [](const config::PlannedCase& c) { return std::vector<std::string>{"fake: " + c.name}; };
  registry.add(kind);
  EXPECT_EQ(engines::plan_text(case_of("here", config::LaunchEngine::local), registry),
            std::vector<std::string>{"fake: here"});
  EXPECT_TRUE(engines::plan_text(slurm, registry).empty()) << "an engine the registry lacks adds nothing";
}

}  // namespace
}  // namespace perfzero::engine_plan_checks_test
