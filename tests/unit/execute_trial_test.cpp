// runner/execute_trial, the one call that takes a trial from its command to the results model:
// through the local executor and the real perfzero-launch, with the samplers it is given; and with
// any other Executor behind the same call (a scripted one here: the seam that executors spanning
// hosts plug into).
#include "runner/execute_trial.hpp"

#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "common/trial_files.hpp"
#include "run_outputs/trial_report.hpp"
#include "runner/local_executor.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::runner::execute_trial_test {
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
  job.request.command = {planned.command.argv,
                         job.dir,
                         {"PATH=/usr/bin:/bin", "PERFZERO_RESULT_FILE=" + (job.dir / files::kResultFile).string()}};
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
  const auto planned = shell_case("echo hello; sleep 0.05");
  auto job = job_for(planned, dir);
  // The harness's time counts from when it began on the trial (its directory made before the call).
  job.started -= std::chrono::seconds(1);
  job.started_offset = 7.5;
  job.trial = 3;
  job.dir = dir.path() / planned.dir / "trial_3";
  std::filesystem::create_directories(job.dir);
  const ExecutedTrial done = execute_trial(job, local);
  EXPECT_EQ(done.trial.outcome, Outcome::succeeded) << done.trial.detail;
  EXPECT_EQ(done.trial.exit_code, 0);
  EXPECT_EQ(done.trial.number, 3);
  EXPECT_FALSE(done.trial.warmup);
  EXPECT_DOUBLE_EQ(done.trial.started_offset, 7.5);
  EXPECT_GE(done.trial.wall_time, 0.04);
  EXPECT_GE(done.trial.harness_seconds, 1.0 + done.trial.wall_time);
  // Whether the run writes trial reports is the run loop's to say (run_outputs::trial_report_path).
  EXPECT_TRUE(done.trial.report.empty());
  // Made before the launch, started on it, finished after the tree ended.
  EXPECT_EQ(*seen, (std::vector<std::string>{"made", "start", "finish"}));
  ASSERT_TRUE(done.trial.samplers.contains("recording")) << done.trial.samplers.dump();
  EXPECT_DOUBLE_EQ(done.trial.samplers["recording"]["wall_seconds"].get<double>(), done.record.execution.wall_seconds);
  // The process tree is always watched; the built-in samplers only when the factory makes them.
  EXPECT_TRUE(done.trial.samplers.contains("process_tree"));
  EXPECT_FALSE(done.trial.samplers.contains("host_load"));
  EXPECT_EQ(done.trial.dir, "shell/trial_3");

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
  auto planned = shell_case(R"(echo '{"metrics": [{"name": "m", "value": 42}]}' > "$PERFZERO_RESULT_FILE")");
  planned.command.output = config::OutputFormat::perfzero;
  // Intact: the guard is asked once the method has ended (its result file is there), then the result is read.
  auto intact = job_for(planned, dir);
  bool result_there = false;
  intact.request.check_trial_dir = [&, result = intact.dir / files::kResultFile] {
    result_there = std::filesystem::exists(result);
    return TrialDirCheck{};
  };
  const auto read = execute_trial(intact, local);
  EXPECT_TRUE(result_there);
  EXPECT_EQ(read.trial.outcome, Outcome::succeeded) << read.trial.detail;
  ASSERT_EQ(read.trial.metrics.size(), 1U);
  EXPECT_EQ(read.trial.metrics[0].value, 42);

  auto damaged = job_for(planned, dir);
  int asked = 0;
  damaged.request.check_trial_dir = [&] {
    ++asked;
    return TrialDirCheck{"replaced its trial directory with a symlink", false};
  };
  const auto done = execute_trial(damaged, local);
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(done.trial.outcome, Outcome::failed);
  EXPECT_TRUE(done.trial.has_exception);
  EXPECT_TRUE(done.trial.metrics.empty()) << "the result the method wrote is not read";
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

TEST(ExecuteTrial, WhatAnExecutorObservedReachesTheTrialAndWhatAChildSaysIsRedacted) {
  TempDir dir;
  const auto planned = shell_case("anything");
  TrialExecution ran;
  ran.end = ProcessEnd::exited;
  ran.wall_seconds = 0.5;
  samplers::SamplerOutput gpu;
  gpu.summary = {{"max_temperature_c", 81}};
  gpu.flags = {"gpu_throttled"};
  gpu.series.sampler = "gpu";
  gpu.series.columns = {"time", "temperature_c"};
  gpu.series.rows = {{0.1, 80.0}, {0.2, 81.0}};
  ran.samplers.emplace_back("gpu", gpu);
  ScriptedExecutor scripted(ran);
  const auto done = execute_trial(job_for(planned, dir), scripted);
  EXPECT_EQ(done.trial.samplers["gpu"]["max_temperature_c"], 81);
  EXPECT_NE(std::find(done.trial.flags.begin(), done.trial.flags.end(), "gpu_throttled"), done.trial.flags.end());
  ASSERT_EQ(done.artifacts.series.size(), 1U);
  EXPECT_EQ(done.artifacts.series[0].rows.size(), 2U);
  EXPECT_TRUE(done.record.execution.samplers[0].second.series.rows.empty()) << "moved to the artifacts";

  TrialExecution leaked;
  leaked.end = ProcessEnd::launch_failed;
  leaked.launch_error = "cannot reach https://admin:hunter2@scheduler.example/api";
  ScriptedExecutor leaking(leaked);
  const auto redacted = execute_trial(job_for(planned, dir), leaking);
  EXPECT_EQ(redacted.trial.detail.find("hunter2"), std::string::npos) << redacted.trial.detail;
  EXPECT_NE(redacted.trial.detail.find("scheduler.example"), std::string::npos) << redacted.trial.detail;

  TrialExecution stopped;
  stopped.end = ProcessEnd::interrupted;
  stopped.signal = SIGTERM;
  ScriptedExecutor stopping(stopped);
  const auto interrupted = execute_trial(job_for(planned, dir), stopping);
  EXPECT_EQ(interrupted.trial.outcome, Outcome::interrupted);
  EXPECT_EQ(interrupted.record.execution.signal, SIGTERM) << "the run loop stops on it";
  EXPECT_EQ(run_outputs::trial_report_path(interrupted.trial), "") << "run again by --resume: no report";
}

// The ranks of a multi-rank method report into the trial directory: read when it is intact, and
// never followed when the method removed or replaced it.
TEST(ExecuteTrial, RankReportsAreReadOnlyFromAnIntactDirectory) {
  TempDir dir;
  auto planned = shell_case("anything");
  planned.launch.engine = config::LaunchEngine::mpirun;
  planned.launch.tasks_per_node = 2;
  TrialExecution ran;
  ran.end = ProcessEnd::exited;
  ran.exit_code = 1;
  ran.world_size = 2;
  ran.engine = "mpirun";
  ScriptedExecutor scripted(ran);
  auto intact = job_for(planned, dir);
  dir.write("shell/trial_1/ranks/rank-0.json", R"({"rank":0,"host":"a","exit_code":0})");
  dir.write("shell/trial_1/ranks/rank-1.json", R"({"rank":1,"host":"b","exit_code":null,"signal":11})");
  const auto read = execute_trial(intact, scripted);
  EXPECT_EQ(read.trial.outcome, Outcome::crashed);
  EXPECT_EQ(read.trial.detail.rfind("rank 1 on b was ended by SIGSEGV", 0), 0U) << read.trial.detail;
  ASSERT_TRUE(read.trial.ranks.is_object());
  EXPECT_EQ(read.trial.ranks["ranks"].size(), 2U);
  EXPECT_EQ(read.trial.ranks["hosts"][1]["hostname"], "b");

  auto damaged = job_for(planned, dir);
  damaged.request.check_trial_dir = [] { return TrialDirCheck{"replaced its trial directory with a symlink", false}; };
  const auto refused = execute_trial(damaged, scripted);
  EXPECT_EQ(refused.trial.outcome, Outcome::failed);
  EXPECT_TRUE(refused.record.execution.ranks.ranks.empty()) << "nothing in a damaged directory is read";
}

TEST(TrialReportPath, OnlyMeasuredTrialsThatEndedHaveOne) {
  results::Trial t;
  t.dir = "case/trial_2";
  t.outcome = Outcome::failed;
  EXPECT_EQ(run_outputs::trial_report_path(t), "case/trial_2/perfzero_summary.json");
  t.warmup = true;
  EXPECT_EQ(run_outputs::trial_report_path(t), "");
  t.warmup = false;
  t.outcome = Outcome::interrupted;
  EXPECT_EQ(run_outputs::trial_report_path(t), "");
}

}  // namespace
}  // namespace perfzero::runner::execute_trial_test
