#include "config/suite.hpp"

#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "config/plan_builder.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::config::suite_test {
namespace {

using perfzero::testing::TempDir;

std::vector<PlannedCase> plan_for(const std::filesystem::path& suite, RunSettings flags = {}) {
  // The built-in methods linked into this test, as if one worker had listed them.
  static const method_catalog::Catalog builtin = [] {
    method_catalog::Catalog c;
    c.add("perfzero-worker-builtin", {"builtin", Registry::instance().methods()});
    return c;
  }();
  PlanInputs inputs;
  inputs.catalog = &builtin;
  inputs.suites.push_back(load_suite(suite, builtin.registry()));
  inputs.flags = std::move(flags);
  inputs.path_env = "/usr/bin:/bin";
  return build_plan(inputs);
}

TEST(Suite, SweepsExpandIntoOneCasePerCombination) {
  TempDir dir;
  const auto file = dir.write("s.yaml", R"(
defaults: {trials: 2, timeout: 30s}
methods:
  - method: sanity.Sanity.benchmark_allocate
    params: {mib: [1, 2, 3], hold_ms: [0, 5]}
)");
  const auto plan = plan_for(file);
  ASSERT_EQ(plan.size(), 6U);
  EXPECT_EQ(plan[0].name, "sanity.Sanity.benchmark_allocate[hold_ms=0,mib=1]");
  EXPECT_EQ(plan[5].name, "sanity.Sanity.benchmark_allocate[hold_ms=5,mib=3]");
  EXPECT_EQ(std::get<std::int64_t>(plan[5].params.at("mib")), 3);
  EXPECT_EQ(plan[0].trials, 2);
  EXPECT_EQ(plan[0].timeout, std::chrono::seconds(30));
}

TEST(Suite, FlagsOverrideEntriesWhichOverrideDefaults) {
  TempDir dir;
  const auto file = dir.write("s.yaml", R"(
defaults: {trials: 2, warmup_trials: 1, env: {A: "1", B: "2"}}
methods:
  - method: sanity.Sanity.benchmark_noop
    trials: 5
    env: {B: "3"}
)");
  auto plan = plan_for(file);
  ASSERT_EQ(plan.size(), 1U);
  EXPECT_EQ(plan[0].trials, 5);
  EXPECT_EQ(plan[0].warmup_trials, 1);
  EXPECT_EQ(plan[0].env.at("A"), "1");
  EXPECT_EQ(plan[0].env.at("B"), "3");
  RunSettings flags;
  flags.trials = 7;
  plan = plan_for(file, flags);
  EXPECT_EQ(plan[0].trials, 7);
  EXPECT_EQ(plan[0].timeout, kDefaultTimeout);
}

TEST(Suite, TrialsAutoTakesItsLimitsFromAnyLevelAndANumberTurnsItOff) {
  TempDir dir;
  const auto file = dir.write("s.yaml", R"(
defaults: {trials: auto, max_trials: 30, max_noise: 1.5}
methods:
  - method: sanity.Sanity.benchmark_noop
    min_trials: 8
    min_time: 2s
  - method: sanity.Sanity.benchmark_sleep
    trials: 3
)");
  auto plan = plan_for(file);
  ASSERT_EQ(plan.size(), 2U);
  ASSERT_TRUE(plan[0].auto_trials.has_value());
  EXPECT_EQ(plan[0].trials, 30);  // the most it may get
  EXPECT_EQ(plan[0].auto_trials->min_trials, 8);
  EXPECT_EQ(plan[0].auto_trials->max_trials, 30);
  EXPECT_DOUBLE_EQ(plan[0].auto_trials->min_seconds, 2.0);
  EXPECT_DOUBLE_EQ(plan[0].auto_trials->max_noise, 0.015);
  EXPECT_FALSE(plan[1].auto_trials.has_value());
  EXPECT_EQ(plan[1].trials, 3);
  // --benchmark_num_trials=N wins over the suite's auto.
  RunSettings flags;
  flags.trials = 4;
  plan = plan_for(file, flags);
  EXPECT_FALSE(plan[0].auto_trials.has_value());
  EXPECT_EQ(plan[0].trials, 4);
}

TEST(Suite, TrialsAutoLimitsThatCannotHoldAreErrorsWithTheirPlace) {
  TempDir dir;
  const auto crossed = dir.write("c.yaml", R"(
defaults: {trials: auto, min_trials: 20, max_trials: 10}
methods: [{method: sanity.Sanity.benchmark_noop}]
)");
  try {
    plan_for(crossed);
    FAIL() << "min_trials above max_trials was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("min_trials 20 is above max_trials 10"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("c.yaml:3"), std::string::npos) << e.what();
  }
  const auto noise = dir.write("n.yaml", R"(
defaults: {trials: auto, max_noise: 0}
methods: [{method: sanity.Sanity.benchmark_noop}]
)");
  EXPECT_THROW(plan_for(noise), ConfigError);
  const auto word = dir.write("w.yaml", R"(
defaults: {trials: some}
methods: [{method: sanity.Sanity.benchmark_noop}]
)");
  EXPECT_THROW(plan_for(word), ConfigError);
}

TEST(Suite, ExternalCommandsSubstituteParamsAndResolveTheirDirectory) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "work");
  const auto file = dir.write("s.yaml", R"(
methods:
  - name: ext.echo
    command: [sh, -c, "echo {n} ${HOME} {}"]
    working_dir: work
    params: {n: [1, 2]}
)");
  const auto plan = plan_for(file);
  ASSERT_EQ(plan.size(), 2U);
  EXPECT_TRUE(plan[0].external);
  EXPECT_EQ(plan[0].name, "ext.echo[n=1]");
  EXPECT_EQ(plan[1].command.argv.at(2), "echo 2 ${HOME} {}");  // shell's ${VAR} and {} are not placeholders
  EXPECT_EQ(plan[0].command.working_dir, std::filesystem::absolute(dir.path() / "work"));
}

TEST(Suite, CommandsMayDeclareWhichWayIsBetterPerMetric) {
  TempDir dir;
  const auto file = dir.write("s.yaml", R"(
methods:
  - name: ext.timed
    command: [/bin/true]
    output: none
    metric_directions: {wall_time: lower, throughput: higher}
)");
  const auto plan = plan_for(file);
  ASSERT_EQ(plan.size(), 1U);
  EXPECT_EQ(plan[0].command.metric_directions.at("throughput"), Direction::higher_is_better);
  EXPECT_EQ(plan[0].command.metric_directions.at("wall_time"), Direction::lower_is_better);
  const auto bad = dir.write("bad.yaml",
                             "methods:\n  - name: e\n    command: [/bin/true]\n"
                             "    metric_directions: {wall_time: faster}\n");
  try {
    load_suite(bad);
    FAIL() << "accepted a direction that is neither higher nor lower";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(":4:36: methods[0].metric_directions.wall_time: expected higher or lower"),
              std::string::npos)
        << e.what();
  }
}

// main_metric (what perfzero report ranks a method by) on every kind of entry, kept when a flag asks
// for the same method, and a collision when two entries name different ones.
TEST(Suite, EveryEntryMayNameItsMainMetric) {
  TempDir dir;
  const auto file = dir.write("s.yaml", R"(
methods:
  - method: sanity.Sanity.benchmark_noop
    main_metric: ops_per_second
  - name: ext.timed
    command: [/bin/true]
    main_metric: " items/s rate "
)");
  const auto plan = plan_for(file);
  ASSERT_EQ(plan.size(), 2U);
  EXPECT_EQ(plan[0].main_metric, "ops_per_second");
  EXPECT_EQ(plan[1].main_metric, "items/s rate");
  for (const char* bad : {"    main_metric: \"\"\n", "    main_metric: {a: 1}\n", "    main_metric: \"a\\tb\"\n"}) {
    const auto bad_file = dir.write("bad.yaml", std::string("methods:\n  - name: e\n    command: [/bin/true]\n") + bad);
    try {
      load_suite(bad_file);
      FAIL() << "accepted " << bad;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("bad.yaml:4:"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("methods[0].main_metric"), std::string::npos) << e.what();
    }
  }
  const auto twice = dir.write("twice.yaml", R"(
methods:
  - method: sanity.Sanity.benchmark_noop
    main_metric: a
  - method: sanity.Sanity.benchmark_noop
    main_metric: b
)");
  try {
    plan_for(twice);
    FAIL() << "two main metrics for one case were accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("main_metric a vs b"), std::string::npos) << e.what();
  }
}

TEST(Suite, DuplicatesRunOnce) {
  TempDir dir;
  const auto file = dir.write("s.yaml", R"(
methods:
  - sanity.Sanity.benchmark_noop
  - sanity.Sanity.filter:benchmark_no.*
)");
  const auto plan = plan_for(file);
  ASSERT_EQ(plan.size(), 2U);  // benchmark_noop once, benchmark_no_result once
  EXPECT_EQ(plan[0].name, "sanity.Sanity.benchmark_noop");
  EXPECT_EQ(plan[1].name, "sanity.Sanity.benchmark_no_result");
}

TEST(Suite, ErrorsNameFileLineColumnKeyAndExpectation) {
  TempDir dir;
  const auto file = dir.write("bad.yaml", "methods:\n  - method: sanity.Sanity.benchmark_sleep\n    trails: 3\n");
  try {
    load_suite(file);
    FAIL() << "accepted an unknown key";
  } catch (const ConfigError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.string() + ":3:5: methods[0].trails: unknown key 'trails'; did you mean 'trials'?"),
              std::string::npos)
        << message;
  }
}

TEST(CaseName, ListsParametersInOrder) {
  EXPECT_EQ(case_name("m", {}), "m");
  EXPECT_EQ(case_name("m", {{"b", true}, {"a", std::int64_t{1}}}), "m[a=1,b=true]");
}

}  // namespace
}  // namespace perfzero::config::suite_test
