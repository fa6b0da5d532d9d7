// Methods launched on several ranks by a real mpirun (launch: {engine: mpirun}), on this host:
// every rank under perfzero-rank, one result per trial, the rank and host named in every failure,
// nothing left running after a time-out (docs/multi-host.md).
#include <unistd.h>

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../unit/scoped_env.hpp"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::multi_rank_test {
namespace {

std::string this_host() {
  char name[256] = "";
  ::gethostname(name, sizeof name - 1);
  return name;
}

nlohmann::json report(const std::filesystem::path& out, const std::string& case_dir) {
  return read_json(out / case_dir / "trial_1" / "perfzero_summary.json");
}

// Processes whose command line holds `marker`, other than this test's own.
int processes_with(const std::string& marker) {
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(::getpid())) continue;
    std::string cmdline = slurp(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(marker) != std::string::npos) ++n;
  }
  return n;
}

class MultiRank : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::system("command -v mpirun > /dev/null") != 0) {
      GTEST_SKIP() << "mpirun is not installed (Debian's openmpi-bin; scripts/install-deps.sh installs it)";
    }
  }
};

TEST_F(MultiRank, EveryRankSeesItsRankAndOnlyRankZerosResultCounts) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: ranks
    command: [/bin/sh, -c, 'echo "rank=$PERFZERO_RANK of $PERFZERO_WORLD_SIZE local=$PERFZERO_LOCAL_RANK tmp=$TMPDIR";
              touch "$TMPDIR/left"; echo "{\"metrics\":[{\"name\":\"r\",\"value\":$PERFZERO_RANK}]}" > "$PERFZERO_RESULT_FILE"']
    launch: {engine: mpirun, tasks_per_node: 3}
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const std::string log = slurp(out / "ranks" / "trial_1" / "perfzero.log");
  for (int r = 0; r < 3; ++r) {
    EXPECT_NE(log.find(fmt::format("rank={} of 3 local={} tmp=/tmp/perfzero-rank{}-", r, r, r)), std::string::npos)
        << log;
  }
  const auto rep = report(out, "ranks");
  EXPECT_EQ(rep["benchmark_result"]["metrics"][0]["value"], 0.0) << "rank 0's metric, not the last writer's";
  const auto& ranks = rep["perfzero_cpp"]["ranks"];
  EXPECT_EQ(ranks["world_size"], 3);
  ASSERT_EQ(ranks["ranks"].size(), 3U);
  for (const auto& r : ranks["ranks"]) {
    EXPECT_EQ(r["exit_code"], 0) << r.dump();
    EXPECT_EQ(r["host"], this_host());
    EXPECT_EQ(r["tmp_leftover_files"], 1) << "what it left in its node-local TMPDIR is counted";
    EXPECT_GT(r["max_rss"].get<double>(), 0);
  }
  EXPECT_EQ(ranks["refused_results"], (nlohmann::json{1, 2}));
  EXPECT_EQ(host_ranks(rep["perfzero_cpp"]["hosts"]),
            (nlohmann::json{{{"hostname", this_host()}, {"ranks", {0, 1, 2}}}}));
  // The first rank's agent watched the host: its facts, and its load beside the ranks.
  const auto& host = rep["perfzero_cpp"]["hosts"][0];
  EXPECT_GT(host["system_info"]["cpus"].get<int>(), 0) << host.dump();
  EXPECT_FALSE(host["system_info"]["kernel"].get<std::string>().empty()) << host.dump();
  EXPECT_TRUE(host["load"].contains("other_busy_cpus")) << host.dump();
  EXPECT_FALSE(host.contains("same_machine_as")) << "one host, no other";
  const auto flags = rep["perfzero_cpp"]["flags"];
  EXPECT_NE(std::find(flags.begin(), flags.end(), "rank_results_refused"), flags.end()) << flags.dump();
  EXPECT_EQ(rep["perfzero_cpp"]["launch"]["tasks_per_node"], 3);
  // Every node-local TMPDIR is gone with its rank.
  for (const auto& entry : std::filesystem::directory_iterator("/tmp")) {
    EXPECT_EQ(log.find(entry.path().string()), std::string::npos) << entry.path() << " outlived its rank";
  }
}

TEST_F(MultiRank, ABuiltInMethodWritesOneResultFromRankZero) {
  TempDir dir;
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--launch=mpirun,tasks_per_node=2",
                               "--output_dir=" + out.string()},
                              dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto rep = report(out, "sanity.Sanity.benchmark_noop");
  EXPECT_EQ(rep["perfzero_cpp"]["outcome"], "succeeded");
  EXPECT_EQ(rep["perfzero_cpp"]["ranks"]["world_size"], 2);
  EXPECT_EQ(rep["perfzero_cpp"]["ranks"]["refused_results"], nlohmann::json::array());
}

// Each host's GPUs, watched by its first rank's agent through nvidia-smi: a fake one here
// (tests/fakes/bin/nvidia-smi, two GPUs), since no GPU can exist on this machine.
TEST_F(MultiRank, EachHostsGpusAreWatchedByItsFirstRanksAgent) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: wait
    output: none
    command: [/bin/sleep, "1"]
    launch: {engine: mpirun, tasks_per_node: 2}
)yaml");
  const std::string path = (kSourceDir / "tests" / "fakes" / "bin").string() + ":" + std::getenv("PATH");
  {
    ScopedEnv env{{"PATH", path}, {"PERFZERO_HOST_SAMPLE_MS", "100"}};
    const auto out = dir.path() / "run";
    const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
    ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
    const auto hosts = report(out, "wait")["perfzero_cpp"]["hosts"];
    ASSERT_EQ(hosts.size(), 1U);
    const auto& gpus = hosts[0]["gpus"];
    ASSERT_EQ(gpus.size(), 2U) << hosts.dump() << " (one agent watches a host, not each of its two ranks)";
    EXPECT_EQ(gpus[0]["name"], "Fake GPU A100");
    EXPECT_GE(gpus[0]["samples"].get<int>(), 5) << "about 10 samples a second for 1 s";
    EXPECT_EQ(gpus[0]["util_max_percent"], 100.0) << "25 % a sample up to 100";
    EXPECT_GT(gpus[0]["util_mean_percent"].get<double>(), 25.0);
    EXPECT_LT(gpus[0]["util_mean_percent"].get<double>(), 100.0);
    EXPECT_GE(gpus[0]["memory_used_max_bytes"].get<double>(), 1040.0 * 1048576);
    EXPECT_EQ(gpus[0]["memory_total_bytes"], 40960.0 * 1048576);
    EXPECT_EQ(gpus[0]["power_mean_watts"], 250.5);
    EXPECT_TRUE(gpus[1]["power_mean_watts"].is_null()) << "[N/A] is no figure";
    EXPECT_EQ(processes_with("--loop-ms="), 0) << "nvidia-smi ends with the rank";
  }
  {
    // A host where nvidia-smi fails (no driver) reports no GPUs, and the method runs as usual.
    ScopedEnv env{{"PATH", path}, {"FAKE_NVIDIA_SMI_FAIL", "1"}};
    const auto out = dir.path() / "run2";
    const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
    ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
    const auto rep = report(out, "wait");
    EXPECT_FALSE(rep["perfzero_cpp"]["hosts"][0].contains("gpus")) << rep["perfzero_cpp"]["hosts"].dump();
    EXPECT_EQ(slurp(out / "wait" / "trial_1" / "perfzero.log").find("NVIDIA"), std::string::npos)
        << "nvidia-smi's complaint stays out of the method's log";
  }
}

// Each rank's whole tree, sampled by its agent while it runs: two processes of 60 MiB each are a
// 120 MiB rank, which no single process's peak (wait4) shows; process_info is the largest rank's.
TEST_F(MultiRank, EachRanksTreeIsSampledAndProcessInfoIsTheLargestRanks) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: two
    output: none
    command: [/bin/sh, -c, 'for i in 1 2; do /usr/bin/python3 -c "import time; x = bytearray(60 << 20); x[::4096] = bytes(len(x[::4096])); time.sleep(1.5)" & done; wait']
    launch: {engine: mpirun, tasks_per_node: 2}
)yaml");
  ScopedEnv env{{"PERFZERO_HOST_SAMPLE_MS", "100"}};
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto rep = report(out, "two");
  std::uint64_t largest = 0;
  for (const auto& r : rep["perfzero_cpp"]["ranks"]["ranks"]) {
    ASSERT_TRUE(r.contains("max_rss_tree")) << r.dump();
    EXPECT_GT(r["max_rss_tree"].get<std::uint64_t>(), std::uint64_t{120} << 20) << r.dump();
    EXPECT_LT(r["max_rss"].get<std::uint64_t>(), std::uint64_t{100} << 20) << "one process's peak: " << r.dump();
    EXPECT_GE(r["max_processes"].get<int>(), 3) << "the shell and its two children";
    largest = std::max({largest, r["max_rss_tree"].get<std::uint64_t>(), r["max_rss"].get<std::uint64_t>()});
  }
  EXPECT_EQ(rep["process_info"]["max_rss"].get<std::uint64_t>(), largest) << rep["process_info"].dump();
}

// The network family between two ranks (here two ranks of this host, over loopback): rank 1 serves,
// rank 0 measures, both directions and round trips; on one rank it says what it needs.
TEST_F(MultiRank, TheNetworkFamilyMeasuresBetweenRankZeroAndRankOne) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - method: network.Tcp.benchmark_throughput
    params: {runtime: 0.5, direction: [upload, download], streams: [1, 3]}
  - method: network.Tcp.benchmark_latency
    params: {runtime: 0.5, message_bytes: 64}
defaults:
  launch: {engine: mpirun, tasks_per_node: 2}
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto run = read_json(out / "run.json");
  ASSERT_EQ(run["plan"].size(), 5U);
  for (const auto& c : run["plan"]) {
    const auto rep = report(out, c["dir"].get<std::string>());
    ASSERT_EQ(rep["perfzero_cpp"]["outcome"], "succeeded")
        << c["name"] << ": " << rep["perfzero_cpp"]["outcome_detail"];
    std::map<std::string, double> m;
    for (const auto& metric : rep["benchmark_result"]["metrics"]) m[metric["name"]] = metric["value"];
    if (c["method"] == "network.Tcp.benchmark_throughput") {
      EXPECT_GT(m["throughput"], 0.01) << c["name"];
      EXPECT_EQ(rep["perfzero_cpp"]["metric_units"]["throughput"], "Gbit/s");
      EXPECT_EQ(rep["perfzero_cpp"]["metric_directions"]["throughput"], "higher");
      EXPECT_EQ(rep["benchmark_result"]["extras"]["streams"], c["params"]["streams"]);
    } else {
      EXPECT_GT(m["latency_p50_us"], 0);
      EXPECT_LE(m["latency_p50_us"], m["latency_p99_us"]);
      EXPECT_LE(m["latency_p99_us"], m["latency_p99_9_us"]);
      EXPECT_GT(m["transactions_per_second"], 10);
      EXPECT_EQ(rep["perfzero_cpp"]["metric_directions"]["latency_p99_us"], "lower");
    }
  }
  EXPECT_EQ(processes_with("network.Tcp."), 0) << "rank 1's server ended with the trial";
  // Alone, it cannot measure between hosts and says what it needs.
  const auto alone = dir.path() / "alone";
  const auto g =
      run_perfzero({"--benchmark_methods=network.Tcp.benchmark_latency", "--output_dir=" + alone.string()}, dir.path());
  ASSERT_EQ(g.exit_code, 0) << g.err;
  const auto rep = report(alone, "network.Tcp.benchmark_latency");
  EXPECT_EQ(rep["perfzero_cpp"]["outcome"], "skipped");
  EXPECT_NE(rep["perfzero_cpp"]["outcome_detail"].get<std::string>().find("needs two ranks"), std::string::npos);
}

// The iperf3 peer of the network family: rank 1 serves one test, rank 0 runs the client, and
// perfzero reads rank 0's iperf3 report (output: iperf3).
TEST_F(MultiRank, Iperf3BetweenTwoRanksIsReadAsTheMethodsResult) {
  if (std::system("command -v iperf3 > /dev/null") != 0) GTEST_SKIP() << "iperf3 is not installed";
  TempDir dir;
  const auto suite = dir.write("s.yaml", fmt::format(R"yaml(
methods:
  - name: iperf3
    command: [/bin/sh, {}, --time, "1"]
    output: iperf3
    launch: {{engine: mpirun, tasks_per_node: 2}}
    env: {{IPERF3_PORT: "5321"}}
)yaml",
                                                     (kSourceDir / "benchmarks/baselines/iperf3_pair.sh").string()));
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto rep = report(out, "iperf3");
  ASSERT_EQ(rep["perfzero_cpp"]["outcome"], "succeeded") << rep["perfzero_cpp"]["outcome_detail"];
  bool received = false;
  for (const auto& m : rep["benchmark_result"]["metrics"])
    received |= m["name"] == "received_throughput" && m["value"] > 0.0;
  EXPECT_TRUE(received) << rep["benchmark_result"].dump();
  EXPECT_EQ(rep["perfzero_cpp"]["ranks"]["refused_results"], nlohmann::json::array());
  EXPECT_EQ(processes_with("iperf3 --server"), 0);
}

TEST_F(MultiRank, AFailingRankIsNamedWithItsHostAndTheRunGoesOn) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
defaults: {launch: {engine: mpirun, tasks_per_node: 2}}
methods:
  - {name: crash, command: [/bin/sh, -c, 'if [ "$PERFZERO_RANK" = 1 ]; then kill -SEGV $$; fi; sleep 20']}
  - {name: exit3, command: [/bin/sh, -c, 'if [ "$PERFZERO_RANK" = 1 ]; then exit 3; fi; sleep 20']}
  - {name: fine, command: [/bin/true], output: none}
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;
  const auto crash = report(out, "crash")["perfzero_cpp"];
  EXPECT_EQ(crash["outcome"], "crashed");
  EXPECT_EQ(crash["outcome_detail"].get<std::string>().rfind("rank 1 on " + this_host() + " was ended by SIGSEGV", 0),
            0U)
      << crash["outcome_detail"];
  const auto exit3 = report(out, "exit3")["perfzero_cpp"];
  EXPECT_EQ(exit3["outcome"], "failed");
  EXPECT_EQ(exit3["outcome_detail"].get<std::string>().rfind("rank 1 on " + this_host() + " exited with code 3", 0), 0U)
      << exit3["outcome_detail"];
  EXPECT_EQ(report(out, "fine")["perfzero_cpp"]["outcome"], "succeeded");
}

TEST_F(MultiRank, ATimedOutStepIsStoppedOnEveryRankAndLeavesNothingRunning) {
  TempDir dir;
  const std::string marker = fmt::format("pz-mr-{}", ::getpid());
  const auto suite = dir.write("s.yaml", fmt::format(R"yaml(
methods:
  - {{name: hang, command: [/bin/sh, -c, 'sleep 60 # {}'], launch: {{engine: mpirun, tasks_per_node: 2}}, timeout: 1s}}
)yaml",
                                                     marker));
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;
  const auto r = report(out, "hang")["perfzero_cpp"];
  EXPECT_EQ(r["outcome"], "timed_out");
  EXPECT_NE(r["outcome_detail"].get<std::string>().find("asked to stop (SIGTERM)"), std::string::npos)
      << r["outcome_detail"];
  ASSERT_EQ(r["ranks"]["ranks"].size(), 2U) << "each rank reported its end: " << r["ranks"].dump();
  for (const auto& rank : r["ranks"]["ranks"]) EXPECT_EQ(rank["signal"], "SIGTERM") << rank.dump();
  EXPECT_EQ(processes_with(marker), 0);
}

// Two ranks measure something other than three: resuming a run with another launch is another plan.
TEST_F(MultiRank, ResumingWithAnotherLaunchIsRefusedAsAChangedPlan) {
  TempDir dir;
  const auto out = dir.path() / "run";
  const std::vector<std::string> common{"--benchmark_methods=sanity.Sanity.benchmark_noop",
                                        "--output_dir=" + out.string()};
  auto with = [&](const std::vector<std::string>& more) {
    auto args = common;
    args.insert(args.end(), more.begin(), more.end());
    return run_perfzero(args, dir.path());
  };
  ASSERT_EQ(with({"--launch=mpirun,tasks_per_node=2"}).exit_code, 0);
  const auto f = with({"--launch=mpirun,tasks_per_node=3", "--resume"});
  EXPECT_EQ(f.exit_code, 2) << f.err;
  EXPECT_NE(f.err.find("the plan differs"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("changed sanity.Sanity.benchmark_noop"), std::string::npos) << f.err;
  EXPECT_EQ(with({"--launch=mpirun,tasks_per_node=2", "--resume"}).exit_code, 0) << "the same launch resumes";
}

TEST_F(MultiRank, BadLaunchInputIsAOneLineErrorBeforeAnyTrial) {
  TempDir dir;
  auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--launch=mpirun,tasks=2"}, dir.path());
  EXPECT_EQ(f.exit_code, 2) << f.err;
  EXPECT_NE(f.err.find("--launch: unknown key 'tasks'"), std::string::npos) << f.err;
  f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--launch=mpirun,nodes=2"}, dir.path());
  EXPECT_EQ(f.exit_code, 2) << f.err;
  EXPECT_NE(f.err.find("nodes: 2 needs hosts or a hostfile"), std::string::npos) << f.err;
  const auto suite = dir.write("s.yaml", "methods:\n  - {name: c, command: [/bin/true], launch: {engine: srun}}\n");
  f = run_perfzero({"validate", suite.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 2) << f.err;
  EXPECT_NE(f.err.find("s.yaml:2:"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("expected local, mpirun or slurm"), std::string::npos) << f.err;
  // A name the kernel refuses (ENAMETOOLONG) is the same one-line error, not an internal error.
  const auto long_host = dir.write("h.yaml",
                                   "methods:\n  - {name: c, command: [/bin/true], launch: {engine: mpirun, "
                                   "hostfile: /tmp/" +
                                       std::string(5000, 'h') + "}}\n");
  f = run_perfzero({"validate", long_host.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 2) << f.err;
  EXPECT_NE(f.err.find("cannot be read (File name too long)"), std::string::npos) << f.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "results")) << "nothing ran";
}

}  // namespace
}  // namespace perfzero::testing::multi_rank_test
