// The network family between two hosts of the three-host cluster (slurm_cluster.hpp): the link to one
// host shaped with tc's token bucket, so throughput must read what the shaping says; and a host lost
// mid-measurement. netem (delay) is not in this machine's kernel ("Specified qdisc kind is unknown"),
// so round-trip latency is not shaped here; the test checks that and says so if it changes.
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "slurm_cluster.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::network_cluster_test {
namespace {

double throughput_of(const nlohmann::json& rep) {
  for (const auto& m : rep["benchmark_result"]["metrics"]) {
    if (m["name"] == "throughput") return m["value"].get<double>();
  }
  return 0;
}

// The bridge's side of pz-node2's veth: what leaves it goes to pz-node2.
const std::string kToNode2 = "pzslurmv2";

TEST_F(SlurmCluster, TcpThroughputReadsWhatTheShapedLinkAllows) {
  ASSERT_EQ(
      shell(fmt::format("tc qdisc replace dev {} root tbf rate 100mbit burst 64kb latency 50ms", kToNode2)).status, 0);
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - method: network.Tcp.benchmark_throughput
    params: {runtime: 3, direction: [upload, download]}
    launch: {engine: slurm, nodes: 2, hosts: [pz-node1, pz-node2]}
  - method: network.Tcp.benchmark_latency
    params: {runtime: 1}
    launch: {engine: slurm, nodes: 2, hosts: [pz-node1, pz-node2]}
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  shell(fmt::format("tc qdisc del dev {} root", kToNode2));
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto run = read_json(out / "run.json");
  std::map<std::string, std::string> dirs;
  for (const auto& c : run["plan"]) dirs[c["name"].get<std::string>()] = c["dir"].get<std::string>();
  const auto upload = report(out, dirs.at("network.Tcp.benchmark_throughput[direction=upload,runtime=3]"));
  const auto download = report(out, dirs.at("network.Tcp.benchmark_throughput[direction=download,runtime=3]"));
  EXPECT_EQ(host_ranks(upload["perfzero_cpp"]["hosts"]),
            (nlohmann::json{{{"hostname", "pz-node1"}, {"ranks", {0}}}, {{"hostname", "pz-node2"}, {"ranks", {1}}}}));
  // Into pz-node2 (rank 0 to rank 1) the token bucket allows 100 Mbit/s; TCP gets most of it.
  EXPECT_GT(throughput_of(upload), 0.080) << upload["benchmark_result"].dump();
  EXPECT_LT(throughput_of(upload), 0.105) << upload["benchmark_result"].dump();
  // The other way is not shaped.
  EXPECT_GT(throughput_of(download), 0.3) << download["benchmark_result"].dump();
  const auto latency = report(out, dirs.at("network.Tcp.benchmark_latency[runtime=1]"));
  EXPECT_EQ(latency["perfzero_cpp"]["outcome"], "succeeded") << detail_of(latency);
  // If netem appears in this kernel, delay shaping can be tested too: say so.
  const Shell netem = shell("tc qdisc add dev lo root netem delay 1ms && tc qdisc del dev lo root");
  EXPECT_NE(netem.status, 0) << "netem works here now: shape the delay and check latency_p50_us too";
  EXPECT_EQ(leftovers_after(10s), "");
}

TEST_F(SlurmCluster, AHostLostMidMeasurementFailsTheTrialNamingIt) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - method: network.Tcp.benchmark_throughput
    params: {runtime: 60}
    launch: {engine: slurm, nodes: 2, hosts: [pz-node1, pz-node3]}
    timeout: 3m
)yaml");
  const auto out = dir.path() / "run";
  RunningPerfzero p({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  // Rank 1 publishes where it listens once it serves: then bytes are moving.
  const auto give_up = std::chrono::steady_clock::now() + 60s;
  std::filesystem::path published;
  while (published.empty() && std::chrono::steady_clock::now() < give_up) {
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(out, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->path().filename() == "network_server.json") published = it->path();
    }
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_FALSE(published.empty()) << "rank 1 never served";
  std::this_thread::sleep_for(1s);
  ASSERT_EQ(cluster("lose pz-node3").status, 0);
  const auto f = p.wait();
  EXPECT_EQ(f.exit_code, 1) << f.err << f.out;
  const auto run = read_json(out / "run.json");
  const auto rep = report(out, run["plan"][0]["dir"].get<std::string>());
  EXPECT_EQ(rep["perfzero_cpp"]["outcome"], "failed") << detail_of(rep);
  EXPECT_NE(detail_of(rep).find("pz-node3"), std::string::npos) << detail_of(rep);
  EXPECT_EQ(leftovers_after(15s), "");
}

}  // namespace
}  // namespace perfzero::testing::network_cluster_test
