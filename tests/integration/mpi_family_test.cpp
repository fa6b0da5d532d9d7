// The mpi family through the real perfzero on two ranks of this host (launch: mpirun): every
// operation succeeds, is checked, and reports algbw and busbw with nccl-tests' factors; the
// point-to-point methods say plainly that one rank is not enough.
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::mpi_family_test {
namespace {

// A case's first trial report, found through run.json's plan (the directory spells the name safely).
nlohmann::json report(const std::filesystem::path& out, const std::string& case_name) {
  const auto run = read_json(out / "run.json");
  for (const auto& c : run["plan"]) {
    if (c["name"] == case_name)
      return read_json(out / c["dir"].get<std::string>() / "trial_1" / "perfzero_summary.json");
  }
  ADD_FAILURE() << "no case " << case_name << " in " << out / "run.json";
  return nlohmann::json::object();
}

double metric(const nlohmann::json& r, const std::string& name) {
  for (const auto& m : r["benchmark_result"]["metrics"]) {
    if (m["name"] == name) return m["value"].get<double>();
  }
  ADD_FAILURE() << "no metric " << name << " in " << r["benchmark_result"].dump();
  return 0;
}

TEST(MpiFamily, EveryCollectiveIsCheckedAndReportsBusBandwidthWithItsFactor) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
defaults: {launch: {engine: mpirun, tasks_per_node: 2}}
methods:
  - method: mpi.Collectives.filter:.*
    params: {bytes: 65536, iters: 3, warmup_iters: 1}
  - method: mpi.Collectives.filter:benchmark_(allreduce|allgather|reduce_scatter|alltoall)
    params: {bytes: 4096, iters: 2, in_place: true}
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  // nccl-tests' factors at n = 2: allreduce 2(n-1)/n = 1, the (n-1)/n ones 0.5, broadcast 1.
  const std::vector<std::pair<std::string, double>> factors{
      {"allreduce", 1.0}, {"allgather", 0.5}, {"reduce_scatter", 0.5}, {"alltoall", 0.5}, {"broadcast", 1.0}};
  for (const auto& [op, factor] : factors) {
    for (const std::string params : {"[bytes=65536,iters=3,warmup_iters=1]", "[bytes=4096,in_place=true,iters=2]"}) {
      if (op == "broadcast" && params.find("in_place") != std::string::npos) continue;
      const std::string name = "mpi.Collectives.benchmark_" + op + params;
      const auto r = report(out, name);
      ASSERT_EQ(r["perfzero_cpp"]["outcome"], "succeeded") << name << ": " << r["perfzero_cpp"]["outcome_detail"];
      EXPECT_EQ(r["benchmark_result"]["extras"]["ranks"], 2) << name;
      EXPECT_DOUBLE_EQ(r["benchmark_result"]["extras"]["bus_factor"].get<double>(), factor) << name;
      EXPECT_GT(metric(r, "algbw"), 0) << name;
      EXPECT_NEAR(metric(r, "busbw"), metric(r, "algbw") * factor, 1e-9 * metric(r, "algbw")) << name;
      EXPECT_GT(metric(r, "time_us"), 0) << name;
      EXPECT_EQ(r["perfzero_cpp"]["metric_directions"]["busbw"], "higher") << name;
      EXPECT_EQ(r["perfzero_cpp"]["metric_directions"]["time_us"], "lower") << name;
      EXPECT_EQ(r["perfzero_cpp"]["ranks"]["refused_results"], nlohmann::json::array()) << "rank 0 alone reports";
    }
  }
}

TEST(MpiFamily, PointToPointNeedsTwoRanksAndSaysSo) {
  TempDir dir;
  const auto out = dir.path() / "run";
  auto f = run_perfzero({"--benchmark_methods=mpi.PointToPoint.filter:.*", "--launch=mpirun,tasks_per_node=2",
                         "--output_dir=" + out.string()},
                        dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_GT(metric(report(out, "mpi.PointToPoint.benchmark_latency"), "latency_us"), 0);
  EXPECT_GT(metric(report(out, "mpi.PointToPoint.benchmark_bandwidth"), "bandwidth"), 0);
  const auto alone = dir.path() / "alone";
  f = run_perfzero({"--benchmark_methods=mpi.PointToPoint.benchmark_latency", "--output_dir=" + alone.string()},
                   dir.path());
  EXPECT_EQ(f.exit_code, 0) << f.err;
  const auto r = report(alone, "mpi.PointToPoint.benchmark_latency")["perfzero_cpp"];
  EXPECT_EQ(r["outcome"], "skipped");
  EXPECT_NE(r["outcome_detail"].get<std::string>().find("needs 2 or more ranks, got 1"), std::string::npos)
      << r["outcome_detail"];
}

TEST(MpiFamily, BadParametersFailWithTheReason) {
  TempDir dir;
  const auto suite =
      dir.write("s.yaml", "methods:\n  - {method: mpi.Collectives.benchmark_broadcast, params: {in_place: true}}\n");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;
  const auto r = report(out, "mpi.Collectives.benchmark_broadcast[in_place=true]")["perfzero_cpp"];
  EXPECT_EQ(r["outcome"], "failed");
  EXPECT_NE(r["outcome_detail"].get<std::string>().find("broadcast has no in-place form"), std::string::npos)
      << r["outcome_detail"];
}

}  // namespace
}  // namespace perfzero::testing::mpi_family_test
