// perfzero report on clusters, from real runs on the three-host cluster (slurm_cluster.hpp): one
// method run on 1, 2 and 3 hosts, labelled as a catalog shape, reported together. Every figure the
// report states is worked out again here from the trial reports (perfzero_summary.json): the medians,
// N x the hourly price, the cost per unit of work, the speedup and the scaling efficiency.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "slurm_cluster.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::report_cluster_test {
namespace {

constexpr double kUsdPerHostHour = 1.5;  // the catalog below

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// What a run's trial reports say: the hosts, the main metric (the first whose unit is a rate) and
// every trial's value of it and wall time.
struct FromTrials {
  std::vector<std::string> hosts;
  std::string metric;
  std::vector<double> values;
  std::vector<double> walls;
};

FromTrials read_trials(const std::filesystem::path& run) {
  FromTrials out;
  const auto plan = read_json(run / "run.json")["plan"];
  EXPECT_EQ(plan.size(), 1U);
  for (int trial = 1; trial <= 3; ++trial) {
    const auto rep =
        read_json(run / plan[0]["dir"].get<std::string>() / fmt::format("trial_{}", trial) / "perfzero_summary.json");
    EXPECT_EQ(rep["perfzero_cpp"]["outcome"], "succeeded") << rep["perfzero_cpp"]["outcome_detail"];
    std::vector<std::string> hosts;
    for (const auto& h : rep["perfzero_cpp"]["hosts"]) hosts.push_back(h["hostname"].get<std::string>());
    if (trial == 1) out.hosts = hosts;
    EXPECT_EQ(hosts, out.hosts) << "every trial of a run on the same hosts";
    const auto& units = rep["perfzero_cpp"]["metric_units"];
    for (const auto& m : rep["benchmark_result"]["metrics"]) {
      const std::string unit = units.value(m["name"].get<std::string>(), "");
      if (unit.size() > 2 && unit.ends_with("/s")) {
        if (out.metric.empty()) out.metric = m["name"].get<std::string>();
        if (m["name"] == out.metric) out.values.push_back(m["value"].get<double>());
        break;
      }
    }
    out.walls.push_back(rep["benchmark_result"]["wall_time"].get<double>());
  }
  return out;
}

const nlohmann::json& by_key(const nlohmann::json& list, const char* field, const std::string& value) {
  for (const auto& item : list) {
    if (item[field] == value) return item;
  }
  ADD_FAILURE() << "no " << field << " " << value << " in " << list.dump();
  static const nlohmann::json kNone;
  return kNone;
}

TEST_F(SlurmCluster, AReportOfOneTwoAndThreeHostsStatesTheScalingTheTrialReportsGiveByHand) {
  if (!std::filesystem::exists(kBinDir / "harness" / "perfzero-worker-mpi")) {
    GTEST_SKIP() << "the MPI worker was not built (libopenmpi-dev; PERFZERO_WITH_MPI)";
  }
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - method: mpi.Collectives.benchmark_allreduce
    params: {bytes: 1048576, iters: 5, warmup_iters: 1}
    trials: 3
)yaml");
  const auto catalog = dir.write("catalog.yaml", R"(catalog_version: 1
shapes:
  - {provider: oci, shape: BM.Test.Cluster, arch: x86_64, vcpus: 2, usd_per_hour: 1.5, source: "https://example.org/p", date: 2026-06-01}
)");
  std::vector<std::string> runs;
  for (int nodes = 1; nodes <= 3; ++nodes) {
    const auto out = dir.path() / fmt::format("run{}", nodes);
    const auto f = run_perfzero(
        {"--config=" + suite.string(), "--output_dir=" + out.string(), fmt::format("--launch=slurm,nodes={}", nodes),
         "--platform_name=oci", "--instance_type=BM.Test.Cluster"},
        dir.path());
    ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
    runs.push_back(out.string());
  }
  const auto report_dir = dir.path() / "report";
  std::vector<std::string> args{"report",        "--catalog=" + catalog.string(), "--today=2026-06-02",
                                "--use_flagged", "--format=json,html,md",         "--out=" + report_dir.string()};
  args.insert(args.end(), runs.begin(), runs.end());
  const auto f = run_perfzero(args, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto report = read_json(report_dir / "report.json");

  // By hand, from the trial reports.
  std::map<int, FromTrials> trials;
  for (int nodes = 1; nodes <= 3; ++nodes) {
    trials[nodes] = read_trials(runs[static_cast<std::size_t>(nodes - 1)]);
    ASSERT_EQ(trials[nodes].hosts.size(), static_cast<std::size_t>(nodes));
    ASSERT_EQ(trials[nodes].values.size(), 3U) << "a rate in every trial";
  }
  const std::string metric = trials[1].metric;
  EXPECT_EQ(metric, "algbw");
  const std::map<int, std::string> keys{
      {1, "BM.Test.Cluster"}, {2, "BM.Test.Cluster x2 hosts"}, {3, "BM.Test.Cluster x3 hosts"}};
  ASSERT_EQ(report["configurations"].size(), 3U) << report["configurations"].dump();
  // The cost per GB is quoted per the power of 1000 that brings the cheapest to at least $0.01.
  double cheapest = INFINITY;
  for (int n = 1; n <= 3; ++n) cheapest = std::min(cheapest, n * kUsdPerHostHour / 3600 / median(trials[n].values));
  double scale = 1;
  while (cheapest * scale < 0.01) scale *= 1000;

  ASSERT_EQ(report["methods"].size(), 1U);
  const auto& method = report["methods"][0];
  EXPECT_EQ(method["name"], "mpi.Collectives.benchmark_allreduce[bytes=1048576,iters=5,warmup_iters=1]");
  EXPECT_EQ(method["main_metric"]["name"], metric);
  EXPECT_DOUBLE_EQ(method["main_metric"]["scale"].get<double>(), scale);
  ASSERT_EQ(method["scaling"].size(), 1U) << method.dump();
  const auto& scaling = method["scaling"][0];
  EXPECT_EQ(scaling["shape"], "BM.Test.Cluster");
  EXPECT_EQ(scaling["relative_to_nodes"], 1);
  EXPECT_EQ(scaling["throughput_unit"], "GB/s");
  EXPECT_EQ(scaling["efficiency_formula"], "T(N) / (N x T(1))");
  ASSERT_EQ(scaling["points"].size(), 3U);
  const double t1 = median(trials[1].values);
  for (int n = 1; n <= 3; ++n) {
    SCOPED_TRACE(fmt::format("{} hosts", n));
    const auto& key = keys.at(n);
    const auto& config = by_key(report["configurations"], "key", key);
    const double price = n * kUsdPerHostHour;
    EXPECT_EQ(config["nodes"], n);
    EXPECT_DOUBLE_EQ(config["price"]["usd_per_hour"].get<double>(), price);
    EXPECT_DOUBLE_EQ(config["price"]["usd_per_host_hour"].get<double>(), kUsdPerHostHour);
    EXPECT_EQ(config["price"]["how"],
              n == 1 ? std::string("list price") : fmt::format("{} hosts x $1.5 per hour (list price)", n));
    EXPECT_DOUBLE_EQ(config["vcpus"].get<double>(), 2.0 * n);
    EXPECT_EQ(config["runs"], nlohmann::json::array({runs[static_cast<std::size_t>(n - 1)]}));
    // A cluster keeps every host's system info, as the trial reports name them.
    std::vector<std::string> hosts;
    for (const auto& h : config["hosts"]) {
      hosts.push_back(h["hostname"].get<std::string>());
      EXPECT_GT(h["system_info"]["cpus"].get<int>(), 0) << h.dump();
    }
    EXPECT_EQ(hosts, n == 1 ? std::vector<std::string>{} : trials[n].hosts);

    const auto& cell = by_key(method["cells"], "configuration", key);
    const double tn = median(trials[n].values);
    const double wall = median(trials[n].walls);
    EXPECT_EQ(cell["status"], "ok");
    EXPECT_DOUBLE_EQ(cell["main_metric"]["median"].get<double>(), tn);
    EXPECT_DOUBLE_EQ(cell["wall_time_s"]["median"].get<double>(), wall);
    EXPECT_NEAR(cell["cost_per_run_usd"].get<double>(), price * wall / 3600, 1e-12 * price * wall);
    const double per_unit = price / 3600 / tn * scale;
    EXPECT_NEAR(cell["cost_per_unit_usd"].get<double>(), per_unit, 1e-9 * per_unit);

    const auto& point = scaling["points"][n - 1];
    EXPECT_EQ(point["configuration"], key);
    EXPECT_EQ(point["nodes"], n);
    EXPECT_DOUBLE_EQ(point["throughput"].get<double>(), tn);
    EXPECT_NEAR(point["speedup"].get<double>(), tn / t1, 1e-12 * tn / t1);
    const double efficiency = tn / (n * t1);
    EXPECT_NEAR(point["efficiency"].get<double>(), efficiency, 1e-12 * efficiency);
    EXPECT_NEAR(point["cost_per_unit_usd"].get<double>(), per_unit, 1e-9 * per_unit);
    EXPECT_NEAR(point["cost_per_run_usd"].get<double>(), price * wall / 3600, 1e-12 * price * wall);
  }
  const std::string html = slurp(report_dir / "report.html");
  EXPECT_NE(html.find("<svg class=\"scaling\""), std::string::npos);
  EXPECT_NE(html.find(fmt::format("<summary>3 hosts: {}</summary>", fmt::join(trials[3].hosts, ", "))),
            std::string::npos);
  const std::string md = slurp(report_dir / "report.md");
  EXPECT_NE(md.find("**Scaling on BM.Test.Cluster** (efficiency = T(N) / (N x T(1))):"), std::string::npos) << md;
}

}  // namespace
}  // namespace perfzero::testing::report_cluster_test
