// Methods launched by mpirun with a hostfile across the cluster's three hosts, Slurm left out: the
// hosts are reached the way mpirun reaches hosts without a scheduler, through a remote shell
// (Open MPI's plm_rsh_agent; here the cluster script's `rsh`, where a real cluster has ssh).
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "slurm_cluster.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::mpirun_hosts_test {
namespace {

// The launch every method of these suites gets: a hostfile of the three hosts, one slot each.
std::string mpirun_launch(TempDir& dir) {
  const auto hostfile = dir.write("hostfile", "pz-node1 slots=1\npz-node2 slots=1\npz-node3 slots=1\n");
  return fmt::format(R"yaml(
defaults:
  launch:
    engine: mpirun
    nodes: 3
    hostfile: {}
    extra_args: [--mca, plm_rsh_agent, "{} rsh", --mca, plm_rsh_no_tree_spawn, "1"]
)yaml",
                     hostfile.string(), kCluster.string());
}

TEST_F(SlurmCluster, TheMpiFamilyRunsThroughMpirunWithAHostfileAndNoSlurm) {
  if (!std::filesystem::exists(kBinDir / "harness" / "perfzero-worker-mpi")) {
    GTEST_SKIP() << "the MPI worker was not built (libopenmpi-dev; PERFZERO_WITH_MPI)";
  }
  TempDir dir;
  const auto suite = dir.write("s.yaml", mpirun_launch(dir) + R"yaml(
methods:
  - method: mpi.Collectives.benchmark_allreduce
    params: {bytes: 1048576, iters: 5, warmup_iters: 1}
  - method: mpi.PointToPoint.benchmark_latency
)yaml");
  const auto out = dir.path() / "run";
  // Nothing of Slurm on the way: without its configuration no Slurm command could work.
  ::unsetenv("SLURM_CONF");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto run = read_json(out / "run.json");
  std::map<std::string, std::string> dirs;
  for (const auto& c : run["plan"]) dirs[c["name"].get<std::string>()] = c["dir"].get<std::string>();
  for (const auto& name : {std::string("mpi.Collectives.benchmark_allreduce[bytes=1048576,iters=5,warmup_iters=1]"),
                           std::string("mpi.PointToPoint.benchmark_latency")}) {
    const auto rep = report(out, dirs.at(name));
    EXPECT_EQ(rep["perfzero_cpp"]["outcome"], "succeeded") << name << ": " << detail_of(rep);
    EXPECT_EQ(rep["perfzero_cpp"]["launch"]["engine"], "mpirun");
    EXPECT_EQ(host_ranks(rep["perfzero_cpp"]["hosts"]), (nlohmann::json{{{"hostname", "pz-node1"}, {"ranks", {0}}},
                                                                        {{"hostname", "pz-node2"}, {"ranks", {1}}},
                                                                        {{"hostname", "pz-node3"}, {"ranks", {2}}}}))
        << name;
    for (const auto& host : rep["perfzero_cpp"]["hosts"]) {
      EXPECT_GT(host["system_info"]["cpus"].get<int>(), 0) << host.dump();
      EXPECT_TRUE(host.contains("load")) << host.dump();
    }
  }
  EXPECT_EQ(leftovers_after(10s), "");
}

TEST_F(SlurmCluster, AnMpirunTimeOutAcrossHostsLeavesNoProcessOnAnyHost) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", mpirun_launch(dir) + R"yaml(
methods:
  - name: stuck
    output: none
    command: [/bin/sh, -c, 'touch "$PERFZERO_TRIAL_DIR/started-$PERFZERO_RANK"; trap "" TERM; sleep 120']
    timeout: 4s
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err << f.out;
  const auto rep = report(out, "stuck");
  EXPECT_EQ(rep["perfzero_cpp"]["outcome"], "timed_out") << detail_of(rep);
  EXPECT_EQ(rep["perfzero_cpp"]["hosts"].size(), 3U) << rep["perfzero_cpp"].dump();
  EXPECT_EQ(leftovers_after(10s), "") << "every host's process table";
}

}  // namespace
}  // namespace perfzero::testing::mpirun_hosts_test
