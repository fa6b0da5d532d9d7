// The run loop's decisions against a fake engine (engines/engine.hpp): the test registers an engine
// in place of `local` whose executor starts nothing and answers as scripted, and drives a real run
// session with it (the run directory, the journal, the recorder are real). Scheduling, outcomes,
// resume, a budget's deadline and auto trials are decided by the loop alone, so they are unit tests.
#include "session/run_loop.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/errors.hpp"
#include "engines/engine.hpp"
#include "fake_engine.hpp"
#include "results/flags.hpp"
#include "results/run_status.hpp"
#include "session/run_session.hpp"
#include "temp_dir.hpp"

namespace perfzero::session::run_loop_test {
namespace {

using testing::TempDir;
namespace fake_engine = perfzero::testing::fake_engine;

using fake_engine::command_case;
using fake_engine::exited;
using fake_engine::fake_registry;
using fake_engine::Seen;

SessionSettings settings_in(const TempDir& dir) {
  SessionSettings o;
  o.output_dir = (dir.path() / "run").string();
  o.execution_id = "loop-test";
  return o;
}

HarnessPaths test_paths() {
  HarnessPaths p;
  p.launcher = PERFZERO_LAUNCH_BINARY;
  return p;
}

std::vector<std::string> whats(const std::vector<Seen>& seen) {
  std::vector<std::string> out;
  for (const auto& s : seen) out.push_back(s.what);
  return out;
}

// One session through to its end with the fake engine; returns the loop's stop signal.
std::optional<int> run_session(const SessionSettings& options, const std::vector<config::PlannedCase>& plan,
                               const engines::EngineRegistry& registry, bool interleave,
                               const std::function<void(RunSession&)>& before = {}) {
  RunSession session(options, test_paths(), plan, {}, stderr, registry);
  if (before) before(session);
  const auto stop = session.loop().run_all(interleave);
  static_cast<void>(session.finish(stop ? results::RunStatus{results::RunStatusKind::interrupted, {}}
                                        : results::RunStatus{results::RunStatusKind::completed, {}}));
  return stop;
}

TEST(RunLoop, SequentialAndInterleavedSchedulesReachTheEngineInTheirOrder) {
  const std::vector<config::PlannedCase> plan{command_case("a", 2, 1), command_case("b", 2, 1)};
  for (const bool interleave : {false, true}) {
    TempDir dir;
    std::vector<Seen> seen;
    const auto registry = fake_registry(seen, [](const runner::TrialRequest&) { return exited(0); });
    EXPECT_FALSE(run_session(settings_in(dir), plan, registry, interleave));
    const std::vector<std::string> want =
        interleave
            ? std::vector<std::string>{"a/warmup_1", "b/warmup_1", "a/trial_1", "b/trial_1", "a/trial_2", "b/trial_2"}
            : std::vector<std::string>{"a/warmup_1", "a/trial_1", "a/trial_2", "b/warmup_1", "b/trial_1", "b/trial_2"};
    EXPECT_EQ(whats(seen), want) << "interleave " << interleave;
  }
}

TEST(RunLoop, WhatTheEngineObservedBecomesTheTrialsOutcome) {
  TempDir dir;
  std::vector<Seen> seen;
  const auto registry = fake_registry(seen, [](const runner::TrialRequest& r) {
    const std::string trial = r.trial_dir.filename().string();
    if (trial == "trial_1") return exited(3);
    runner::TrialExecution e;
    e.end = trial == "trial_2" ? runner::ProcessEnd::signaled : runner::ProcessEnd::timed_out;
    e.signal = 11;
    e.wall_seconds = 0.02;
    return e;
  });
  const std::vector<config::PlannedCase> plan{command_case("m", 3, 0)};
  const SessionSettings options = settings_in(dir);  // the session keeps references to these
  RunSession session(options, test_paths(), plan, {}, stderr, registry);
  EXPECT_FALSE(session.loop().run_all(false));
  const auto& trials = session.run().cases[0].trials;
  ASSERT_EQ(trials.size(), 3U);
  EXPECT_EQ(trials[0].outcome, Outcome::failed);
  EXPECT_EQ(trials[0].exit_code, 3);
  EXPECT_EQ(trials[1].outcome, Outcome::crashed);
  EXPECT_EQ(trials[2].outcome, Outcome::timed_out);
  static_cast<void>(session.finish({results::RunStatusKind::completed, {}}));
}

TEST(RunLoop, AResumedRunRunsOnlyWhatTheEarlierAttemptLeftAndAWarmUpBeforeIt) {
  TempDir dir;
  const std::vector<config::PlannedCase> plan{command_case("m", 3, 1)};
  std::vector<Seen> first;
  // The harness is stopped during trial 2: trial 1 is kept, trial 2 ended interrupted.
  const auto stopping = fake_registry(first, [](const runner::TrialRequest& r) {
    if (r.trial_dir.filename() != "trial_2") return exited(0);
    runner::TrialExecution e;
    e.end = runner::ProcessEnd::interrupted;
    e.signal = 15;
    return e;
  });
  EXPECT_EQ(run_session(settings_in(dir), plan, stopping, false), 15);
  EXPECT_EQ(whats(first), (std::vector<std::string>{"m/warmup_1", "m/trial_1", "m/trial_2"}));

  std::vector<Seen> second;
  const auto answering = fake_registry(second, [](const runner::TrialRequest&) { return exited(0); });
  auto resume = settings_in(dir);
  resume.resume = true;
  EXPECT_FALSE(run_session(resume, plan, answering, false));
  EXPECT_EQ(whats(second), (std::vector<std::string>{"m/warmup_1", "m/trial_2", "m/trial_3"}));

  // Resumed once more, complete: nothing reaches the engine, not even a warm-up.
  std::vector<Seen> third;
  const auto idle = fake_registry(third, [](const runner::TrialRequest&) { return exited(0); });
  EXPECT_FALSE(run_session(resume, plan, idle, false));
  EXPECT_TRUE(third.empty()) << whats(third).front();
}

TEST(RunLoop, ABudgetsDeadlineCapsTheTrialInFlightAndNoneStartsAfterIt) {
  TempDir dir;
  std::vector<Seen> seen;
  // The engine runs each trial to its time-out when that is under a second, as a method that would not end.
  const auto registry = fake_registry(seen, [](const runner::TrialRequest& r) {
    if (r.timeout.count() == 0 || r.timeout >= std::chrono::seconds(1)) return exited(0);
    std::this_thread::sleep_for(r.timeout);
    runner::TrialExecution e;
    e.end = runner::ProcessEnd::timed_out;
    e.wall_seconds = std::chrono::duration<double>(r.timeout).count();
    return e;
  });
  const std::vector<config::PlannedCase> plan{command_case("m", 5, 1)};
  const SessionSettings options = settings_in(dir);  // the session keeps references to these
  RunSession session(options, test_paths(), plan, {}, stderr, registry);
  session.loop().set_deadline(std::chrono::steady_clock::now() + std::chrono::milliseconds(300), "--max_time 0.3 s");
  EXPECT_FALSE(session.loop().run_all(false));
  ASSERT_EQ(seen.size(), 1U) << "the warm-up took the whole budget; nothing started after it";
  EXPECT_LE(seen[0].timeout, std::chrono::milliseconds(300));
  EXPECT_EQ(seen[0].timeout_cause, "--max_time 0.3 s");
  const auto& warmup = session.run().cases[0].warmups;
  ASSERT_EQ(warmup.size(), 1U);
  EXPECT_EQ(warmup[0].outcome, Outcome::timed_out);
  EXPECT_EQ(warmup[0].detail.rfind("stopped by --max_time 0.3 s: ", 0), 0U) << warmup[0].detail;
  EXPECT_TRUE(session.run().cases[0].trials.empty());
  static_cast<void>(session.finish({results::RunStatusKind::completed, {}}));
}

// trials: auto (common/auto_trials.hpp): the loop asks for one more trial until the values it got are
// steady enough or a limit is reached. Trials the host-load sampler flags (this machine is shared)
// are not measurements, so the test reads the flags it got before judging where the loop stopped.
config::PlannedCase auto_case(const std::string& name, int min_trials, int max_trials) {
  auto c = command_case(name, max_trials, 0);
  c.auto_trials = AutoTrials{min_trials, max_trials, 0.0, 300.0, 0.02};
  return c;
}

TEST(RunLoop, AutoTrialsOfSteadyValuesStopOnceSixMeasurementsAgree) {
  TempDir dir;
  std::vector<Seen> seen;
  const auto registry = fake_registry(seen, [](const runner::TrialRequest&) { return exited(0, 0.05); });
  const std::vector<config::PlannedCase> plan{auto_case("steady", 3, 40)};
  const SessionSettings options = settings_in(dir);
  RunSession session(options, test_paths(), plan, {}, stderr, registry);
  EXPECT_FALSE(session.loop().run_all(false));
  const auto& trials = session.run().cases[0].trials;
  ASSERT_EQ(trials.size(), seen.size());
  // Where the sixth undisturbed trial came, the noise of its six equal values is 0: the loop stops there.
  int measured = 0;
  std::size_t sixth = 0;
  for (std::size_t i = 0; i < trials.size() && sixth == 0; ++i) {
    if (!results::disturbed(trials[i]) && ++measured == 6) sixth = i + 1;
  }
  if (sixth != 0) {
    EXPECT_EQ(trials.size(), sixth) << "stopped elsewhere than at the sixth measurement";
  } else {
    EXPECT_EQ(trials.size(), 40U) << "fewer than six measurements, yet it stopped before max_trials";
  }
  static_cast<void>(session.finish({results::RunStatusKind::completed, {}}));
}

TEST(RunLoop, AutoTrialsOfNoisyValuesRunToMaxTrials) {
  TempDir dir;
  std::vector<Seen> seen;
  int n = 0;
  const auto registry =
      fake_registry(seen, [&n](const runner::TrialRequest&) { return exited(0, ++n % 2 ? 0.01 : 0.03); });
  const std::vector<config::PlannedCase> plan{auto_case("noisy", 3, 9), command_case("next", 1, 0)};
  const SessionSettings options = settings_in(dir);
  RunSession session(options, test_paths(), plan, {}, stderr, registry);
  EXPECT_FALSE(session.loop().run_all(false));
  EXPECT_EQ(session.run().cases[0].trials.size(), 9U);
  ASSERT_EQ(seen.size(), 10U);
  EXPECT_EQ(seen.back().what, "next/trial_1") << "the next case runs once the auto case is done";
  static_cast<void>(session.finish({results::RunStatusKind::completed, {}}));
}

TEST(RunLoop, InterleavedAutoTrialsStopEachCaseOnItsOwnAndTheOtherGoesOn) {
  TempDir dir;
  std::vector<Seen> seen;
  int n = 0;
  const auto registry = fake_registry(seen, [&n](const runner::TrialRequest& r) {
    const bool noisy = r.trial_dir.parent_path().filename() == "noisy";
    return exited(0, noisy ? (++n % 2 ? 0.01 : 0.03) : 0.05);
  });
  const std::vector<config::PlannedCase> plan{auto_case("noisy", 3, 12), auto_case("steady", 3, 4)};
  const SessionSettings options = settings_in(dir);
  RunSession session(options, test_paths(), plan, {}, stderr, registry);
  EXPECT_FALSE(session.loop().run_all(true));
  // Round by round while both run, then the noisy case alone once the steady one reached its limit.
  const auto order = whats(seen);
  ASSERT_EQ(order.size(), 16U);
  for (int round = 1; round <= 4; ++round) {
    EXPECT_EQ(order[2 * (round - 1)], "noisy/trial_" + std::to_string(round));
    EXPECT_EQ(order[2 * (round - 1) + 1], "steady/trial_" + std::to_string(round));
  }
  for (int round = 5; round <= 12; ++round)
    EXPECT_EQ(order[static_cast<std::size_t>(round + 3)], "noisy/trial_" + std::to_string(round));
  static_cast<void>(session.finish({results::RunStatusKind::completed, {}}));
}

TEST(RunLoop, AnEngineThisBuildLacksIsAConfigErrorNamingTheCase) {
  TempDir dir;
  engines::EngineRegistry empty;
  auto planned = command_case("m", 1, 0);
  planned.origin = "suite.yaml:3";
  planned.launch.engine = config::LaunchEngine::slurm;
  const std::vector<config::PlannedCase> plan{planned};  // the session keeps references to these
  const SessionSettings options = settings_in(dir);
  RunSession session(options, test_paths(), plan, {}, stderr, empty);
  try {
    session.loop().run_all(false);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("suite.yaml:3: launch: engine slurm: this build has no such engine"),
              std::string::npos)
        << e.what();
  }
  static_cast<void>(session.finish(results::RunStatus::aborted("test")));
}

}  // namespace
}  // namespace perfzero::session::run_loop_test
