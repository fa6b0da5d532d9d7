#pragma once
// A fake launch engine for unit tests (engines/engine.hpp): registered in place of `local`, its
// executor starts nothing and answers each trial as the test scripts it, so a real run session (its
// run directory, journal and recorder) can be driven through the loop's and `ab`'s decisions.
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/run_plan.hpp"
#include "engines/engine.hpp"
#include "runner/executor.hpp"

namespace perfzero::testing::fake_engine {

// What the fake engine saw of one trial, and how it answers it.
struct Seen {
  std::string what;  // "<case dir>/<trial dir>"
  std::chrono::milliseconds timeout{0};
  std::string timeout_cause;
  std::filesystem::path trial_dir;  // whole: `ab`'s sides are <output>/baseline and <output>/candidate
};
using Script = std::function<runner::TrialExecution(const runner::TrialRequest&)>;

inline runner::TrialExecution exited(int code, double seconds = 0.01) {
  runner::TrialExecution e;
  e.end = runner::ProcessEnd::exited;
  e.exit_code = code;
  e.wall_seconds = seconds;
  return e;
}

class ScriptedExecutor final : public runner::Executor {
 public:
  ScriptedExecutor(std::vector<Seen>& seen, Script script) : seen_(seen), script_(std::move(script)) {}
  std::string_view name() const override { return "fake"; }
  runner::TrialExecution run(const runner::TrialRequest& request) override {
    const auto dir = request.trial_dir;
    seen_.push_back({dir.parent_path().filename().string() + "/" + dir.filename().string(), request.timeout,
                     request.timeout_cause, request.trial_dir});
    return script_(request);
  }

 private:
  std::vector<Seen>& seen_;
  Script script_;
};

class FakeEngine final : public engines::Engine {
 public:
  FakeEngine(std::vector<Seen>& seen, Script script) : executor_(seen, std::move(script)) {}
  runner::Executor& executor() override { return executor_; }

 private:
  ScriptedExecutor executor_;
};

// A registry whose `local` is the fake engine.
inline engines::EngineRegistry fake_registry(std::vector<Seen>& seen, Script script) {
  engines::EngineRegistry registry;
  registry.add({config::LaunchEngine::local,
                [&seen, script](const engines::EngineSetup&, const config::PlannedCase&) {
                  return std::make_unique<FakeEngine>(seen, script);
                },
                {},
                {},
                {},
                {},
                {}});
  return registry;
}

inline config::PlannedCase command_case(const std::string& name, int trials, int warmups) {
  config::PlannedCase c;
  c.name = c.method = c.dir = name;
  c.origin = "test";
  c.external = true;
  c.command.argv = {"/bin/true"};
  c.command.output = config::OutputFormat::none;
  c.trials = trials;
  c.warmup_trials = warmups;
  return c;
}

}  // namespace perfzero::testing::fake_engine
