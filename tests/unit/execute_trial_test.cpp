// runner/execute_trial, the one call that takes a trial from its command to the results model:
// through the local executor and the real perfzero-launch, with the samplers it is given; and with
// any other Executor behind the same call (a scripted one here: the seam that executors spanning
// hosts plug into).
#include "runner/execute_trial.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "temp_dir.hpp"

namespace perfzero::runner {
namespace {

using testing::TempDir;
using Clock = std::chrono::steady_clock;

// Records what the runner did with it, in order.
class RecordingSampler : public samplers::Sampler {
 public:
  explicit RecordingSampler(std::shared_ptr<std::vector<std::string>> seen) : seen_(std::move(seen)) {
    seen_->push_back("made");
  }
  std::string name() const override { return "recording"; }
  void start(pid_t root) override { seen_->push_back(root > 0 ? "start" : "start without a root"); }
  void sample(double /*time*/) override {}
  samplers::SamplerOutput finish(const samplers::TrialFacts& facts) override {
    seen_->push_back("finish");
    samplers::SamplerOutput out;
    out.summary = {{"wall_seconds", facts.wall_seconds}};
    return out;
  }

 private:
  std::shared_ptr<std::vector<std::string>> seen_;
};

config::PlannedCase shell_case(const std::string& script) {
  config::PlannedCase c;
  c.name = c.method = c.dir = "shell";
  c.external = true;
  c.command.argv = {"/bin/sh", "-c", script};
  c.command.output = config::OutputFormat::none;
  return c;
}

TrialJob job_for(const config::PlannedCase& planned, const TempDir& dir) {
  TrialJob job;
  job.planned = &planned;
  job.run_dir = dir.path();
  job.dir = dir.path() / planned.dir / "trial_1";
  std::filesystem::create_directories(job.dir);
  job.started = Clock::now();
  job.request.command = {planned.command.argv, job.dir, {"PATH=/usr/bin:/bin"}};
  job.request.log_path = job.dir / "perfzero.log";
  job.request.timeout = planned.timeout;
  return job;
}

LocalExecutor recorded_local(std::shared_ptr<std::vector<std::string>> seen) {
  return LocalExecutor(PERFZERO_LAUNCH_BINARY, [seen] {
    std::vector<std::unique_ptr<samplers::Sampler>> out;
    out.push_back(std::make_unique<RecordingSampler>(seen));
    return out;
  });
}

TEST(ExecuteTrial, ALocalCommandBecomesATrialWatchedByTheSamplersItWasGiven) {
  TempDir dir;
  auto seen = std::make_shared<std::vector<std::string>>();
  LocalExecutor local = recorded_local(seen);
  EXPECT_EQ(local.name(), "local");
  const auto planned = shell_case("echo hello; sleep 0.05");
  const ExecutedTrial done = execute_trial(job_for(planned, dir), local);
  EXPECT_EQ(done.trial.outcome, Outcome::succeeded) << done.trial.detail;
  EXPECT_EQ(done.trial.exit_code, 0);
  EXPECT_GE(done.trial.wall_time, 0.04);
  EXPECT_GE(done.trial.harness_seconds, done.trial.wall_time);
  // Made before the launch, started on it, finished after the tree ended.
  EXPECT_EQ(*seen, (std::vector<std::string>{"made", "start", "finish"}));
  ASSERT_TRUE(done.trial.samplers.contains("recording")) << done.trial.samplers.dump();
  EXPECT_DOUBLE_EQ(done.trial.samplers["recording"]["wall_seconds"].get<double>(), done.record.execution.wall_seconds);
  // The process tree is always watched; no built-in sampler was asked for.
  EXPECT_TRUE(done.trial.samplers.contains("process_tree"));
  EXPECT_FALSE(done.trial.samplers.contains("host_load"));
  EXPECT_EQ(done.trial.dir, "shell/trial_1");

  // The same executor (one launcher for the run) serves the next trial.
  const auto again = execute_trial(job_for(planned, dir), local);
  EXPECT_EQ(again.trial.outcome, Outcome::succeeded) << again.trial.detail;
  EXPECT_EQ(seen->size(), 6U);
}

TEST(ExecuteTrial, EveryWayAMethodEndsHasItsOutcome) {
  TempDir dir;
  LocalExecutor local(PERFZERO_LAUNCH_BINARY, [] { return std::vector<std::unique_ptr<samplers::Sampler>>{}; });
  const auto failed = execute_trial(job_for(shell_case("exit 3"), dir), local);
  EXPECT_EQ(failed.trial.outcome, Outcome::failed);
  EXPECT_EQ(failed.trial.exit_code, 3);
  const auto crashed = execute_trial(job_for(shell_case("kill -SEGV $$"), dir), local);
  EXPECT_EQ(crashed.trial.outcome, Outcome::crashed);
  EXPECT_EQ(crashed.trial.signal, "SIGSEGV");
  auto slow = shell_case("sleep 30");
  slow.timeout = std::chrono::milliseconds(200);
  const auto started = Clock::now();
  const auto timed_out = execute_trial(job_for(slow, dir), local);
  EXPECT_EQ(timed_out.trial.outcome, Outcome::timed_out);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - started).count(), 10.0);
  // After a time-out the launcher went with the tree: the next trial gets a new one.
  EXPECT_EQ(execute_trial(job_for(shell_case("true"), dir), local).trial.outcome, Outcome::succeeded);
}

TEST(ExecuteTrial, AMethodThatDamagedItsDirectoryFailsAndItsResultIsNotRead) {
  TempDir dir;
  LocalExecutor local(PERFZERO_LAUNCH_BINARY, [] { return std::vector<std::unique_ptr<samplers::Sampler>>{}; });
  auto planned = shell_case("true");
  auto job = job_for(planned, dir);
  int asked = 0;
  job.damage = [&] {
    ++asked;
    return std::string("replaced its trial directory with a symlink");
  };
  const auto done = execute_trial(job, local);
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(done.trial.outcome, Outcome::failed);
  EXPECT_TRUE(done.trial.has_exception);
  EXPECT_NE(done.trial.detail.find("replaced its trial directory with a symlink"), std::string::npos)
      << done.trial.detail;
}

// What an executor observed is all execute_trial needs: a method run elsewhere (another host, a
// Slurm step) becomes a trial by the same rules.
class ScriptedExecutor : public Executor {
 public:
  explicit ScriptedExecutor(TrialExecution answer) : answer_(std::move(answer)) {}
  std::string_view name() const override { return "scripted"; }
  TrialExecution run(const TrialRequest& request) override {
    requests.push_back(request.command.argv);
    return answer_;
  }
  std::vector<std::vector<std::string>> requests;

 private:
  TrialExecution answer_;
};

TEST(ExecuteTrial, AnyExecutorPlugsInBehindTheSameCall) {
  TempDir dir;
  TrialExecution ran;
  ran.end = ProcessEnd::exited;
  ran.exit_code = 0;
  ran.wall_seconds = 1.5;
  ScriptedExecutor scripted(ran);
  const auto planned = shell_case("anything");
  const auto ok = execute_trial(job_for(planned, dir), scripted);
  ASSERT_EQ(scripted.requests.size(), 1U);
  EXPECT_EQ(scripted.requests[0], planned.command.argv);
  EXPECT_EQ(ok.trial.outcome, Outcome::succeeded) << ok.trial.detail;
  EXPECT_DOUBLE_EQ(ok.trial.wall_time, 1.5);

  TrialExecution lost;
  lost.end = ProcessEnd::launcher_lost;
  lost.launch_error = "node b2 stopped answering";
  ScriptedExecutor gone(lost);
  const auto failed = execute_trial(job_for(planned, dir), gone);
  EXPECT_EQ(failed.trial.outcome, Outcome::failed);
  EXPECT_NE(failed.trial.detail.find("node b2 stopped answering"), std::string::npos) << failed.trial.detail;
}

}  // namespace
}  // namespace perfzero::runner
