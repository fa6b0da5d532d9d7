// perfzero report on clusters: a method run on N hosts is the configuration "shape xN hosts", priced
// N times the shape, and a method run at several node counts of one shape gets a scaling study.
// Every expected figure below is worked out by hand in its comment.
#include <gtest/gtest.h>

#include <sstream>

#include "fleet_report/clusters.hpp"
#include "fleet_report/report_builder.hpp"
#include "fleet_report/report_writers.hpp"
#include "fleet_report/scaling.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::fleet_report::report_scaling_test {
namespace {

using perfzero::testing::TempDir;

// A trial that ran on `hosts` (perfzero_cpp.hosts as the trial report has it); none: a local one.
results::Trial trial(double wall, std::optional<double> rate, const std::vector<std::string>& hosts = {}) {
  results::Trial t;
  t.wall_time = wall;
  t.outcome = Outcome::succeeded;
  if (rate) t.metrics.push_back({"points_per_second", *rate, "points/s", std::nullopt, std::nullopt});
  if (!hosts.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      list.push_back({{"hostname", hosts[i]},
                      {"ranks", {i}},
                      {"system_info", {{"cpus", 4}, {"kernel", "6.1"}}},
                      {"load", {{"busy", false}}}});
    }
    t.ranks = {{"engine", "slurm"}, {"nodes", hosts.size()}, {"world_size", hosts.size()}, {"hosts", list}};
  }
  return t;
}

results::Case method(const std::string& name, std::vector<results::Trial> trials) {
  results::Case c;
  c.name = name;
  c.trials = std::move(trials);
  return c;
}

results::Run run_on(const std::string& shape, std::vector<results::Case> cases) {
  results::Run run;
  run.info.instance_type = shape;
  run.info.system = {{"architecture", "x86_64"}, {"effective_vcpus", 4}, {"memory_total_bytes", 16.0 * (1 << 30)}};
  run.cases = std::move(cases);
  return run;
}

pricing::Catalog test_catalog(const TempDir& dir) {
  return pricing::load_catalog(dir.write("prices.yaml", R"(catalog_version: 1
shapes:
  - {provider: oci, shape: node, arch: x86_64, vcpus: 4, usd_per_hour: 2.0, source: "https://example.org/p", date: 2026-06-01}
)"));
}

FleetReport build(const pricing::Catalog* catalog, const std::vector<results::Run>& runs) {
  ReportBuilder builder({catalog, "", "2026-11-22", 365, {}});
  for (std::size_t i = 0; i < runs.size(); ++i) builder.add_run("run" + std::to_string(i), runs[i]);
  return builder.finish({});
}

const std::vector<std::string> kTwo{"pz-node1", "pz-node2"};
const std::vector<std::string> kThree{"pz-node1", "pz-node2", "pz-node3"};

// One host: 100 points/s (median of 90, 100, 110); two: 180; three: 240.
std::vector<results::Run> one_two_three() {
  return {run_on("node", {method("cube", {trial(1, 90), trial(1, 100), trial(1, 110)})}),
          run_on("node", {method("cube", {trial(1, 170, kTwo), trial(1, 180, kTwo), trial(1, 190, kTwo)})}),
          run_on("node", {method("cube", {trial(1, 230, kThree), trial(1, 240, kThree), trial(1, 250, kThree)})})};
}

TEST(ReportClusters, EachNodeCountIsAConfigurationPricedForEveryHost) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const FleetReport r = build(&catalog, one_two_three());
  ASSERT_EQ(r.configurations.size(), 3U);
  const auto& one = r.configurations[0];
  const auto& two = r.configurations[1];
  const auto& three = r.configurations[2];
  EXPECT_EQ(one.key, "node");  // one host: the key it always had
  EXPECT_EQ(two.key, "node x2 hosts");
  EXPECT_EQ(three.key, "node x3 hosts");
  EXPECT_EQ(one.nodes, 1);
  EXPECT_EQ(three.nodes, 3);
  // $2 an hour a host: 2, 4 and 6.
  EXPECT_EQ(*one.pricing.usd_per_hour, 2.0);
  EXPECT_EQ(*two.pricing.usd_per_hour, 4.0);
  EXPECT_EQ(*three.pricing.usd_per_hour, 6.0);
  EXPECT_EQ(*three.pricing.usd_per_host_hour, 2.0);
  EXPECT_EQ(one.pricing.how, "list price");
  EXPECT_EQ(three.pricing.how, "3 hosts x $2 per hour (list price)");
  EXPECT_EQ(three.vcpus, 12);  // 4 a host
  EXPECT_EQ(three.ocpus, 6);
  // Each host's system info, without the load of one trial.
  ASSERT_EQ(three.hosts.size(), 3U);
  EXPECT_EQ(three.hosts[2],
            (nlohmann::json{{"hostname", "pz-node3"}, {"system_info", {{"cpus", 4}, {"kernel", "6.1"}}}}));
  EXPECT_TRUE(one.hosts.empty());
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();  // 4 vCPUs a host, as the catalog says
}

TEST(ReportClusters, ScalingEfficiencyAndCostPerUnitAgainstOneHost) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const FleetReport r = build(&catalog, one_two_three());
  const auto& row = r.methods.at(0);
  ASSERT_EQ(row.scaling.size(), 1U);
  const Scaling& s = row.scaling[0];
  EXPECT_EQ(s.name, "node");
  EXPECT_EQ(s.unit, "points/s");
  EXPECT_EQ(s.base_nodes, 1);
  EXPECT_EQ(efficiency_formula(s), "T(N) / (N x T(1))");
  ASSERT_EQ(s.points.size(), 3U);
  EXPECT_EQ(s.points[0].nodes, 1);
  EXPECT_EQ(s.points[2].nodes, 3);
  EXPECT_DOUBLE_EQ(*s.points[0].throughput, 100);
  EXPECT_DOUBLE_EQ(*s.points[1].throughput, 180);
  EXPECT_DOUBLE_EQ(*s.points[2].throughput, 240);
  // 180 / (2 x 100) = 0.9; 240 / (3 x 100) = 0.8.
  EXPECT_DOUBLE_EQ(*s.points[0].efficiency, 1.0);
  EXPECT_DOUBLE_EQ(*s.points[1].efficiency, 0.9);
  EXPECT_DOUBLE_EQ(*s.points[2].efficiency, 0.8);
  EXPECT_DOUBLE_EQ(*s.points[1].speedup, 1.8);
  EXPECT_DOUBLE_EQ(*s.points[2].speedup, 2.4);
  // $ per point: $2/h / 3600 / 100 = 5.5556e-6, so quoted per million points: $5.5556; two hosts
  // $4/h / 3600 / 180 x 1e6 = $6.1728; three $6/h / 3600 / 240 x 1e6 = $6.9444.
  EXPECT_EQ(row.metric->per, "million points");
  EXPECT_NEAR(*s.points[0].cost_per_unit, 5.5556, 1e-4);
  EXPECT_NEAR(*s.points[1].cost_per_unit, 6.1728, 1e-4);
  EXPECT_NEAR(*s.points[2].cost_per_unit, 6.9444, 1e-4);
  // Per run: 1 s at $6/h = $0.0016667.
  EXPECT_NEAR(*s.points[2].cost_per_run, 0.0016667, 1e-7);
}

TEST(ReportClusters, WithoutOneHostEfficiencyIsRelativeToTheSmallestNodeCount) {
  // No hosts recorded (every trial failed to report them, say): the launch's nodes decide.
  results::Case two = method("allreduce", {trial(2, 200), trial(2, 200), trial(2, 200)});
  two.launch = {{"engine", "slurm"}, {"nodes", 2}};
  results::Case four = method("allreduce", {trial(2, 300), trial(2, 300), trial(2, 300)});
  four.launch = {{"engine", "slurm"}, {"nodes", 4}};
  const FleetReport r = build(nullptr, {run_on("node", {two}), run_on("node", {four})});
  ASSERT_EQ(r.configurations.size(), 2U);
  EXPECT_EQ(r.configurations[0].key, "node x2 hosts");
  EXPECT_EQ(r.configurations[1].key, "node x4 hosts");
  const Scaling& s = r.methods.at(0).scaling.at(0);
  EXPECT_EQ(s.base_nodes, 2);
  EXPECT_EQ(efficiency_formula(s), "T(N) / ((N/2) x T(2))");
  // 300 / ((4/2) x 200) = 0.75.
  EXPECT_DOUBLE_EQ(*s.points[0].efficiency, 1.0);
  EXPECT_DOUBLE_EQ(*s.points[1].efficiency, 0.75);
  EXPECT_DOUBLE_EQ(*s.points[1].speedup, 1.5);
  // No catalog: unpriced, so no cost, but the scaling stands.
  EXPECT_FALSE(s.points[1].cost_per_unit);
  EXPECT_FALSE(r.configurations[1].pricing.usd_per_hour);
}

TEST(ReportClusters, ANodesSweepInOneRunFeedsOneConfigurationPerCount) {
  EXPECT_EQ(method_name_of("hosts[launch.nodes=3]"), "hosts");
  EXPECT_EQ(method_name_of("x[bytes=8,launch.nodes=2]"), "x[bytes=8]");
  EXPECT_EQ(method_name_of("x[bytes=8,launch.nodes=2,launch.tasks_per_node=4]"), "x[bytes=8,launch.tasks_per_node=4]");
  EXPECT_EQ(method_name_of("x[launch.nodes=two]"), "x[launch.nodes=two]");
  EXPECT_EQ(method_name_of("x[a=launch.nodes=2]"), "x[a=launch.nodes=2]");
  EXPECT_EQ(method_name_of("plain"), "plain");
  // No rate: throughput is runs per second, 1 / median wall time (2 s and 1.25 s).
  const FleetReport r =
      build(nullptr, {run_on("node", {method("t[launch.nodes=1]", {trial(2, std::nullopt)}),
                                      method("t[launch.nodes=2]", {trial(1.25, std::nullopt, kTwo)})})});
  ASSERT_EQ(r.methods.size(), 1U);
  EXPECT_EQ(r.methods[0].name, "t");
  ASSERT_EQ(r.configurations.size(), 2U);
  EXPECT_EQ(r.configurations[0].runs, std::vector<std::string>{"run0"});
  EXPECT_EQ(r.configurations[1].runs, std::vector<std::string>{"run0"});
  EXPECT_EQ(r.runs_read, 1U);
  const Scaling& s = r.methods[0].scaling.at(0);
  EXPECT_EQ(s.unit, "runs/s");
  EXPECT_DOUBLE_EQ(*s.points[0].throughput, 0.5);
  EXPECT_DOUBLE_EQ(*s.points[1].throughput, 0.8);
  // 0.8 / (2 x 0.5) = 0.8.
  EXPECT_DOUBLE_EQ(*s.points[1].efficiency, 0.8);
}

TEST(ReportClusters, OneNodeCountOrLocalRunsOnlyHaveNoScaling) {
  const auto runs = one_two_three();
  const FleetReport r = build(nullptr, {runs[0], run_on("other", {method("cube", {trial(1, 50)})})});
  EXPECT_TRUE(r.methods.at(0).scaling.empty());
  const FleetReport cluster_only = build(nullptr, {runs[2]});
  EXPECT_TRUE(cluster_only.methods.at(0).scaling.empty());
  EXPECT_EQ(cluster_only.configurations.at(0).key, "node x3 hosts");
}

TEST(ReportClusters, SpeedupAndEfficiencyReadWithTheirDigitsWhenSmall) {
  EXPECT_EQ(scaling_ratio_text(1.8), "1.80x");
  EXPECT_EQ(scaling_ratio_text(0.0019), "0.0019x");
  EXPECT_EQ(scaling_ratio_text(std::nullopt), "");
  EXPECT_EQ(efficiency_text(0.9), "90%");
  EXPECT_EQ(efficiency_text(0.0275), "2.8%");
  EXPECT_EQ(efficiency_text(0.0019), "0.19%");
  EXPECT_EQ(efficiency_text(std::nullopt), "");
}

TEST(ReportClusters, EveryOutputShowsTheScaling) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const FleetReport r = build(&catalog, one_two_three());
  std::ostringstream md;
  write_markdown(r, md);
  EXPECT_NE(md.str().find("**Scaling on node** (efficiency = T(N) / (N x T(1))):"), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("| 2 | node x2 hosts | ok | 180 points/s | 1.80x | 90% | $6.173 |"), std::string::npos)
      << md.str();
  EXPECT_NE(md.str().find("| 3 | node x3 hosts | ok | 240 points/s | 2.40x | 80% | $6.944 |"), std::string::npos)
      << md.str();
  EXPECT_NE(md.str().find("3 hosts x $2 per hour (list price)"), std::string::npos);
  std::ostringstream csv;
  write_csv(r, csv);
  EXPECT_NE(csv.str().find(",nodes,scaling_throughput,scaling_speedup,scaling_efficiency,scaling_relative_to_nodes\n"),
            std::string::npos);
  EXPECT_NE(csv.str().find(",3,240,2.4,0.8,1\n"), std::string::npos) << csv.str();
  const auto json = to_json(r);
  EXPECT_EQ(json["report_schema_version"], "1.4.0");
  EXPECT_EQ(json["configurations"][2]["nodes"], 3);
  EXPECT_EQ(json["configurations"][2]["price"]["usd_per_host_hour"], 2.0);
  EXPECT_EQ(json["configurations"][2]["hosts"].size(), 3U);
  const auto& scaling = json["methods"][0]["scaling"][0];
  EXPECT_EQ(scaling["shape"], "node");
  EXPECT_EQ(scaling["relative_to_nodes"], 1);
  EXPECT_EQ(scaling["points"][1]["configuration"], "node x2 hosts");
  EXPECT_DOUBLE_EQ(scaling["points"][1]["efficiency"].get<double>(), 0.9);
  std::ostringstream html;
  write_html(r, html);
  EXPECT_NE(html.str().find("<h4>Scaling on node</h4>"), std::string::npos);
  EXPECT_NE(html.str().find("<svg class=\"scaling\""), std::string::npos);
  EXPECT_NE(html.str().find("class=\"ideal\""), std::string::npos);
  EXPECT_NE(html.str().find("<summary>3 hosts: pz-node1, pz-node2, pz-node3</summary>"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::fleet_report::report_scaling_test
