// Methods launched by a real Slurm (launch: {engine: slurm}) on the three-host cluster of
// slurm_cluster.hpp, when all goes well: every rank on its host and every host in the report, each
// host's own telemetry, the mpi family, a sweep, what Slurm refuses, and --slurm_allocate.
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "slurm_cluster.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::slurm_cluster_test {
namespace {

TEST_F(SlurmCluster, ItsThreeHostsEachHaveTheirOwnNameAndNetwork) {
  const Shell hosts = shell("srun --nodes=3 --ntasks-per-node=1 /bin/sh -c 'echo $(hostname) $SLURM_PROCID'");
  ASSERT_EQ(hosts.status, 0) << hosts.out;
  for (const auto& host : kHosts) EXPECT_NE(hosts.out.find(host), std::string::npos) << hosts.out;
  char here[256] = "";
  ::gethostname(here, sizeof here - 1);
  EXPECT_EQ(std::find(kHosts.begin(), kHosts.end(), std::string(here)), kHosts.end())
      << "the submit host keeps its name";
}

TEST_F(SlurmCluster, EveryRankRunsOnItsHostAndTheReportNamesEveryHost) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: ranks
    command: [/bin/sh, -c, 'echo "rank=$PERFZERO_RANK of $PERFZERO_WORLD_SIZE on $(hostname)";
              echo "{\"metrics\":[{\"name\":\"r\",\"value\":$PERFZERO_RANK}]}" > "$PERFZERO_RESULT_FILE"']
    launch: {engine: slurm, nodes: 3, tasks_per_node: 2}
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto rep = report(out, "ranks");
  EXPECT_EQ(rep["benchmark_result"]["metrics"][0]["value"], 0.0) << "rank 0's metric";
  const auto& ranks = rep["perfzero_cpp"]["ranks"];
  EXPECT_EQ(ranks["engine"], "slurm");
  EXPECT_EQ(ranks["world_size"], 6);
  ASSERT_EQ(ranks["ranks"].size(), 6U) << ranks.dump();
  for (const auto& r : ranks["ranks"]) {
    EXPECT_EQ(r["exit_code"], 0) << r.dump();
    EXPECT_GT(r["max_rss"].get<double>(), 0);
  }
  // Slurm's block distribution: two ranks on each host, in order.
  EXPECT_EQ(host_ranks(rep["perfzero_cpp"]["hosts"]), (nlohmann::json{{{"hostname", "pz-node1"}, {"ranks", {0, 1}}},
                                                                      {{"hostname", "pz-node2"}, {"ranks", {2, 3}}},
                                                                      {{"hostname", "pz-node3"}, {"ranks", {4, 5}}}}));
  EXPECT_EQ(rep["perfzero_cpp"]["launch"]["engine"], "slurm");
  // Every host's facts, from its own agent; the three are one machine, and each says so.
  for (const auto& host : rep["perfzero_cpp"]["hosts"]) {
    EXPECT_GT(host["system_info"]["cpus"].get<int>(), 0) << host.dump();
    EXPECT_EQ(host["same_machine_as"].size(), 2U) << host.dump();
    EXPECT_TRUE(host.contains("load")) << host.dump();
  }
  EXPECT_FALSE(std::filesystem::exists(out / "ranks" / "trial_1" / "slurm_step")) << "kept only while it may run";
  EXPECT_EQ(leftovers_after(10s), "");
}

TEST_F(SlurmCluster, AHostBusyWithSomethingElseIsSeenByItsOwnAgent) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: wait
    output: none
    command: [/bin/sh, -c, 'touch "$PERFZERO_TRIAL_DIR/started-$PERFZERO_RANK"; sleep 3']
    launch: {engine: slurm, nodes: 2, hosts: [pz-node1, pz-node2]}
)yaml");
  const auto out = dir.path() / "run";
  RunningPerfzero p({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_TRUE(ranks_started(out, 2, 60s)) << "the two ranks did not start";
  // A CPU hog on the third host, which the method does not use: the hosts share this machine's CPUs.
  const Shell hog = cluster("exec pz-node3 timeout 2 /bin/sh -c 'while :; do :; done'");
  const auto f = p.wait();
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto rep = report(out, "wait");
  for (const auto& host : rep["perfzero_cpp"]["hosts"]) {
    EXPECT_TRUE(host["load"]["judged"].get<bool>()) << host.dump();
    EXPECT_GT(host["load"]["other_busy_cpus"].get<double>(), 0.3) << host.dump();
    EXPECT_TRUE(host["load"]["busy"].get<bool>()) << host.dump();
    EXPECT_GT(host["load"]["samples"].get<int>(), 10) << "10 Hz over 3 s";
  }
  const auto flags = rep["perfzero_cpp"]["flags"];
  EXPECT_NE(std::find(flags.begin(), flags.end(), "host_busy"), flags.end()) << flags.dump();
}

TEST_F(SlurmCluster, TheMpiFamilyRunsOnTwoAndThreeHosts) {
  if (!std::filesystem::exists(kBinDir / "harness" / "perfzero-worker-mpi")) {
    GTEST_SKIP() << "the MPI worker was not built (libopenmpi-dev; PERFZERO_WITH_MPI)";
  }
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - method: mpi.Collectives.benchmark_allreduce
    params: {bytes: 1048576, iters: 5, warmup_iters: 1}
    launch: {engine: slurm, nodes: 3}
  - method: mpi.PointToPoint.benchmark_latency
    launch: {engine: slurm, nodes: 2, hosts: [pz-node2, pz-node3]}
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto run = read_json(out / "run.json");
  std::map<std::string, std::string> dirs;
  for (const auto& c : run["plan"]) dirs[c["name"].get<std::string>()] = c["dir"].get<std::string>();
  const auto allreduce =
      report(out, dirs.at("mpi.Collectives.benchmark_allreduce[bytes=1048576,iters=5,warmup_iters=1]"));
  EXPECT_EQ(allreduce["perfzero_cpp"]["hosts"].size(), 3U) << allreduce["perfzero_cpp"]["hosts"].dump();
  bool busbw = false;
  for (const auto& m : allreduce["benchmark_result"]["metrics"]) busbw |= m["name"] == "busbw" && m["value"] > 0.0;
  EXPECT_TRUE(busbw) << allreduce["benchmark_result"].dump();
  const auto latency = report(out, dirs.at("mpi.PointToPoint.benchmark_latency"));
  EXPECT_EQ(host_ranks(latency["perfzero_cpp"]["hosts"]),
            (nlohmann::json{{{"hostname", "pz-node2"}, {"ranks", {0}}}, {{"hostname", "pz-node3"}, {"ranks", {1}}}}));
  EXPECT_EQ(latency["perfzero_cpp"]["outcome"], "succeeded") << detail_of(latency);
}

// The speed cube across the three hosts: the one-host mean bit for bit, and Dask distributed (a
// scheduler and a worker per host) on the same hosts, every process of both gone afterwards.
TEST_F(SlurmCluster, TheSpeedCubeAcrossHostsGivesTheOneHostMeanAndDaskDistributedRunsBesideIt) {
  if (!std::filesystem::exists(kBinDir / "harness" / "perfzero-worker-mpi")) {
    GTEST_SKIP() << "the MPI worker was not built (libopenmpi-dev; PERFZERO_WITH_MPI)";
  }
  TempDir dir;
  const auto suite =
      dir.write("s.yaml", fmt::format(R"yaml(
methods:
  - method: mpi.SpeedCube.benchmark_fused
    params: {{n: 3200, chunk: 320, threads: 1, repetitions: 2}}
    launch: {{engine: slurm, nodes: 3}}
  - method: speedcube.SpeedCube.benchmark_fused
    params: {{n: 3200, chunk: 320, threads: 1, repetitions: 1}}
  - name: dask
    command: [/usr/bin/python3, {}, "3200", "320", "1"]
    launch: {{engine: slurm, nodes: 3}}
)yaml",
                                      (kSourceDir / "benchmarks/baselines/speedcube_dask_distributed.py").string()));
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto run = read_json(out / "run.json");
  std::map<std::string, std::string> dirs;
  for (const auto& c : run["plan"]) dirs[c["name"].get<std::string>()] = c["dir"].get<std::string>();
  const auto metric = [](const nlohmann::json& rep, const std::string& name) {
    for (const auto& m : rep["benchmark_result"]["metrics"]) {
      if (m["name"] == name) return m["value"].get<double>();
    }
    ADD_FAILURE() << name << " missing from " << rep["benchmark_result"].dump();
    return 0.0;
  };
  const auto spread = report(out, dirs.at("mpi.SpeedCube.benchmark_fused[chunk=320,n=3200,repetitions=2,threads=1]"));
  const auto one_host =
      report(out, dirs.at("speedcube.SpeedCube.benchmark_fused[chunk=320,n=3200,repetitions=1,threads=1]"));
  EXPECT_EQ(spread["perfzero_cpp"]["hosts"].size(), 3U) << spread["perfzero_cpp"]["hosts"].dump();
  EXPECT_EQ(spread["benchmark_result"]["extras"]["ranks"], 3);
  EXPECT_EQ(metric(spread, "mean"), metric(one_host, "mean")) << "the same points, added in the same order";
  // The ranks ran under slurmstepd, outside perfzero's tree, on this machine (the hosts are its
  // namespaces): this machine's load verdict counts their CPU as the method's, not a neighbour's.
  const auto& load = spread["perfzero_cpp"]["samplers"]["host_load"];
  if (load["judged_by"] == "host load") {
    double ranks_cpu = 0;
    for (const auto& r : spread["perfzero_cpp"]["ranks"]["ranks"]) {
      ranks_cpu += r["user_seconds"].get<double>() + r["system_seconds"].get<double>();
    }
    EXPECT_GT(ranks_cpu, 0.1);
    EXPECT_NEAR(load["outside_tree_cpu_seconds"].get<double>(), ranks_cpu, 1e-6) << load.dump();
  }
  EXPECT_GT(metric(spread, "points_per_second"), 0);
  const auto dask = report(out, "dask");
  EXPECT_EQ(dask["perfzero_cpp"]["outcome"], "succeeded") << detail_of(dask);
  EXPECT_EQ(dask["perfzero_cpp"]["hosts"].size(), 3U);
  EXPECT_EQ(dask["benchmark_result"]["extras"]["workers"], 3) << dask["benchmark_result"].dump();
  EXPECT_EQ(dask["benchmark_result"]["extras"]["worker_hosts"], 3) << "a worker on every host joined";
  EXPECT_NEAR(metric(dask, "mean"), 11.0, 6.0 * 2.0 / 3200);
  EXPECT_EQ(leftovers_after(10s), "") << "no scheduler or worker left on any host";
}

TEST_F(SlurmCluster, ANodesSweepIsAScalingStudyOneCasePerCount) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: hosts
    output: none
    command: [/bin/true]
    launch: {engine: slurm, nodes: [1, 2, 3]}
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto run = read_json(out / "run.json");
  ASSERT_EQ(run["plan"].size(), 3U);
  for (int nodes = 1; nodes <= 3; ++nodes) {
    const auto& c = run["plan"][nodes - 1];
    EXPECT_EQ(c["name"], fmt::format("hosts[launch.nodes={}]", nodes));
    const auto rep = report(out, c["dir"].get<std::string>());
    EXPECT_EQ(rep["perfzero_cpp"]["hosts"].size(), static_cast<std::size_t>(nodes))
        << rep["perfzero_cpp"]["hosts"].dump();
    EXPECT_EQ(rep["perfzero_cpp"]["launch"]["nodes"], nodes);
  }
}

TEST_F(SlurmCluster, WhatSlurmRefusesIsAnErrorAtValidateOrASkipWithSlurmsReason) {
  TempDir dir;
  const auto too_many = dir.write("many.yaml", R"yaml(
methods:
  - name: many
    output: none
    command: [/bin/true]
    launch: {engine: slurm, nodes: 5}
)yaml");
  auto f = run_perfzero({"validate", too_many.string()}, dir.path() / "v1");
  EXPECT_EQ(f.exit_code, 2) << f.err;
  EXPECT_NE(f.err.find("nodes: 5, but Slurm's partition (the default) has 3 nodes"), std::string::npos) << f.err;
  const auto no_partition = dir.write("part.yaml", R"yaml(
methods:
  - name: part
    output: none
    command: [/bin/true]
    launch: {engine: slurm, partition: gpu}
)yaml");
  f = run_perfzero({"validate", no_partition.string()}, dir.path() / "v2");
  EXPECT_EQ(f.exit_code, 2) << f.err;
  EXPECT_NE(f.err.find("Slurm has no partition 'gpu'; Slurm's partitions are pz"), std::string::npos) << f.err;
  // What only srun can know: a feature no node has.
  const auto feature = dir.write("feature.yaml", R"yaml(
methods:
  - name: feature
    output: none
    command: [/bin/true]
    launch: {engine: slurm, nodes: 2, extra_args: [--constraint=infiniband]}
  - name: after
    output: none
    command: [/bin/true]
    launch: {engine: slurm, nodes: 2}
)yaml");
  const auto out = dir.path() / "run";
  f = run_perfzero({"--config=" + feature.string(), "--output_dir=" + out.string()}, dir.path() / "r");
  const auto skipped = report(out, "feature");
  EXPECT_EQ(skipped["perfzero_cpp"]["outcome"], "skipped") << detail_of(skipped);
  EXPECT_EQ(detail_of(skipped).rfind("Slurm refused the step: ", 0), 0U) << detail_of(skipped);
  EXPECT_NE(detail_of(skipped).find("feature"), std::string::npos) << detail_of(skipped);
  EXPECT_EQ(report(out, "after")["perfzero_cpp"]["outcome"], "succeeded");
}

TEST_F(SlurmCluster, SlurmAllocateRunsEveryStepInOneAllocationAndResumeReleasesAKilledRunsOne) {
  TempDir dir;
  const auto flag = dir.path() / "slow";
  const auto suite = dir.write("s.yaml", fmt::format(R"yaml(
defaults:
  launch: {{engine: slurm, nodes: 2}}
methods:
  - name: a
    output: none
    command: [/bin/sh, -c, 'echo "job=$SLURM_JOB_ID step=$SLURM_STEP_ID"']
  - name: b
    output: none
    command: [/bin/sh, -c, 'echo "job=$SLURM_JOB_ID step=$SLURM_STEP_ID"; touch "$PERFZERO_TRIAL_DIR/started-$PERFZERO_RANK";
              if [ -e {} ]; then sleep 300; fi']
    launch: {{nodes: 3}}
)yaml",
                                                     flag.string()));
  const auto out = dir.path() / "run";
  auto f = run_perfzero({"--slurm_allocate", "--config=" + suite.string(), "--output_dir=" + out.string()},
                        dir.path() / "first");
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  EXPECT_NE(f.out.find("perfzero: asking Slurm for 3 node(s)"), std::string::npos) << f.out;
  const std::string a = slurp(out / "a" / "trial_1" / "perfzero.log");
  const std::string b = slurp(out / "b" / "trial_1" / "perfzero.log");
  const auto job = a.substr(0, a.find(' '));
  EXPECT_NE(a.find(job + " step=0"), std::string::npos) << a;
  EXPECT_NE(b.find(job + " step=1"), std::string::npos) << "the second case is the next step of the same job: " << b;
  EXPECT_EQ(shell("squeue --noheader").out, "") << "released when the run ended";
  EXPECT_FALSE(std::filesystem::exists(out / "slurm_allocation"));

  // Killed mid-trial, the run leaves its allocation held; --resume releases it before asking again.
  std::ofstream(flag) << "1";
  const auto again = dir.path() / "again";
  {
    RunningPerfzero p({"--slurm_allocate", "--config=" + suite.string(), "--output_dir=" + again.string()},
                      dir.path() / "second");
    ASSERT_TRUE(ranks_started(again / "b", 3, 60s)) << "the three ranks did not start";
    p.signal(SIGKILL);
    p.wait();
  }
  ASSERT_TRUE(std::filesystem::exists(again / "slurm_allocation"));
  ASSERT_NE(shell("squeue --noheader --format=%j").out.find("perfzero-run-"), std::string::npos);
  std::filesystem::remove(flag);
  f = run_perfzero({"--resume", "--slurm_allocate", "--config=" + suite.string(), "--output_dir=" + again.string()},
                   dir.path() / "resumed");
  EXPECT_EQ(f.exit_code, 0) << f.err << f.out;
  EXPECT_NE(f.err.find("--resume: released Slurm allocation"), std::string::npos) << f.err;
  EXPECT_EQ(report(again, "b")["perfzero_cpp"]["outcome"], "succeeded");
  EXPECT_EQ(shell("squeue --noheader").out, "");
  EXPECT_EQ(leftovers_after(15s), "");
}

}  // namespace
}  // namespace perfzero::testing::slurm_cluster_test
