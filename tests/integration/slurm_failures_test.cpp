// Methods launched by a real Slurm on the three-host cluster of slurm_cluster.hpp, when things go
// wrong: a crashed rank, a lost node, a cut link, a time-out and a perfzero killed mid-trial each end
// with a named outcome, the next trial still runs, and no process of the step is left on any host
// (every host's process table is read).
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "slurm_cluster.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::slurm_failures_test {
namespace {

TEST_F(SlurmCluster, ARankThatCrashesNamesItsRankAndHostAndTheRunGoesOn) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
defaults:
  launch: {engine: slurm, nodes: 3}
  timeout: 2m
methods:
  - name: crash
    output: none
    command: [/bin/sh, -c, 'if [ "$PERFZERO_RANK" = 1 ]; then sleep 1; kill -SEGV $$; fi; sleep 60']
  - name: after
    output: none
    command: [/bin/true]
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err << f.out;
  const auto crash = report(out, "crash");
  EXPECT_EQ(crash["perfzero_cpp"]["outcome"], "crashed") << detail_of(crash);
  EXPECT_EQ(detail_of(crash).rfind("rank 1 on pz-node2 was ended by SIGSEGV", 0), 0U) << detail_of(crash);
  EXPECT_EQ(report(out, "after")["perfzero_cpp"]["outcome"], "succeeded");
  EXPECT_EQ(leftovers_after(15s), "");
}

TEST_F(SlurmCluster, ALostNodeFailsTheTrialNamingTheNodeAndTheRunGoesOn) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: lost
    output: none
    command: [/bin/sh, -c, 'touch "$PERFZERO_TRIAL_DIR/started-$PERFZERO_RANK"; sleep 120']
    launch: {engine: slurm, nodes: 3}
    timeout: 3m
  - name: after
    output: none
    command: [/bin/true]
    launch: {engine: slurm, nodes: 2, hosts: [pz-node1, pz-node2]}
)yaml");
  const auto out = dir.path() / "run";
  RunningPerfzero p({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_TRUE(ranks_started(out, 3, 60s)) << "the three ranks did not start";
  const auto started = std::chrono::steady_clock::now();
  ASSERT_EQ(cluster("lose pz-node3").status, 0);  // every process of the host, slurmd and the rank
  const auto f = p.wait();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(f.exit_code, 1) << f.err << f.out;
  const auto lost = report(out, "lost");
  EXPECT_EQ(lost["perfzero_cpp"]["outcome"], "failed") << detail_of(lost);
  EXPECT_EQ(detail_of(lost).rfind("Slurm lost node pz-node3", 0), 0U) << detail_of(lost);
  EXPECT_EQ(report(out, "after")["perfzero_cpp"]["outcome"], "succeeded");
  EXPECT_LT(seconds, 100) << "srun waits for a lost node's tasks for ever: the harness must stop it";
  EXPECT_EQ(leftovers_after(15s), "");
}

TEST_F(SlurmCluster, ACutLinkFailsTheTrialNamingTheNodeAndNothingIsLeftOnceItMends) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: cut
    output: none
    command: [/bin/sh, -c, 'touch "$PERFZERO_TRIAL_DIR/started-$PERFZERO_RANK"; sleep 120']
    launch: {engine: slurm, nodes: 3}
    timeout: 3m
)yaml");
  const auto out = dir.path() / "run";
  RunningPerfzero p({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_TRUE(ranks_started(out, 3, 60s)) << "the three ranks did not start";
  ASSERT_EQ(cluster("cut pz-node2").status, 0);
  const auto f = p.wait();
  EXPECT_EQ(f.exit_code, 1) << f.err << f.out;
  const auto cut = report(out, "cut");
  EXPECT_EQ(cut["perfzero_cpp"]["outcome"], "failed") << detail_of(cut);
  EXPECT_EQ(detail_of(cut).rfind("Slurm lost node pz-node2", 0), 0U) << detail_of(cut);
  // The cut-off host's rank runs on until its slurmd hears from the controller again, which then
  // ends the step there.
  ASSERT_EQ(cluster("mend pz-node2").status, 0);
  EXPECT_EQ(leftovers_after(90s), "");
}

TEST_F(SlurmCluster, ATimeOutLeavesNoProcessOnAnyHostEvenWhenRanksIgnoreSigterm) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: stuck
    output: none
    command: [/bin/sh, -c, 'trap "" TERM; touch "$PERFZERO_TRIAL_DIR/started-$PERFZERO_RANK"; sleep 300']
    launch: {engine: slurm, nodes: 3}
    timeout: 4s
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err << f.out;
  const auto stuck = report(out, "stuck");
  EXPECT_EQ(stuck["perfzero_cpp"]["outcome"], "timed_out") << detail_of(stuck);
  // No waiting here: the trial ends only once Slurm says the step is gone from every host.
  EXPECT_EQ(leftovers_after(0s), "");
  EXPECT_EQ(shell("squeue --noheader").out, "");
}

TEST_F(SlurmCluster, AKilledPerfzeroLeavesAStepThatResumeCancelsBeforeRunningItAgain) {
  TempDir dir;
  const auto flag = dir.path() / "slow";
  std::ofstream(flag) << "1";
  const auto suite = dir.write("s.yaml", fmt::format(R"yaml(
methods:
  - name: step
    output: none
    command: [/bin/sh, -c, 'touch "$PERFZERO_TRIAL_DIR/started-$PERFZERO_RANK"; if [ -e {} ]; then sleep 300; fi']
    launch: {{engine: slurm, nodes: 3}}
    timeout: 2m
)yaml",
                                                     flag.string()));
  const auto out = dir.path() / "run";
  {
    RunningPerfzero p({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path() / "first");
    ASSERT_TRUE(ranks_started(out, 3, 60s)) << "the three ranks did not start";
    p.signal(SIGKILL);
    p.wait();
  }
  ASSERT_TRUE(std::filesystem::exists(out / "step" / "trial_1" / "slurm_step"));
  std::filesystem::remove(flag);
  // The killed run's srun went with it (its launcher ends the tree), but its step runs on.
  ASSERT_NE(shell("squeue --noheader --format=%j").out.find("perfzero-"), std::string::npos);
  const auto f =
      run_perfzero({"--resume", "--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path() / "again");
  EXPECT_EQ(f.exit_code, 0) << f.err << f.out;
  EXPECT_NE(f.err.find("--resume: cancelled 1 Slurm step(s) the earlier run left running"), std::string::npos) << f.err;
  EXPECT_EQ(report(out, "step")["perfzero_cpp"]["outcome"], "succeeded");
  EXPECT_EQ(leftovers_after(0s), "") << "resume cancelled the killed run's step before it went on";
  EXPECT_EQ(shell("squeue --noheader").out, "");
}

}  // namespace
}  // namespace perfzero::testing::slurm_failures_test
