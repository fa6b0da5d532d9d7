// perfzero report's figures, checked against hand computations on small runs built in memory.
#include "fleet_report/report_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "fleet_report/html_text.hpp"
#include "fleet_report/report_figures.hpp"
#include "fleet_report/report_writers.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::fleet_report::report_builder_test {
namespace {

using perfzero::testing::TempDir;

results::Trial trial(double wall, std::optional<double> rate, Outcome outcome = Outcome::succeeded) {
  results::Trial t;
  t.wall_time = wall;
  t.outcome = outcome;
  if (outcome != Outcome::succeeded) t.detail = "exit status 1";
  if (rate) t.metrics.push_back({"points_per_second", *rate, "points/s", std::nullopt, std::nullopt});
  return t;
}

results::Run run_on(const std::string& shape, std::vector<results::Case> cases, double vcpus = 2) {
  results::Run run;
  run.info.instance_type = shape;
  run.info.system = {{"architecture", "x86_64"}, {"effective_vcpus", vcpus}, {"memory_total_bytes", 16.0 * (1 << 30)}};
  run.cases = std::move(cases);
  return run;
}

results::Case method(const std::string& name, std::vector<results::Trial> trials) {
  results::Case c;
  c.name = name;
  c.trials = std::move(trials);
  return c;
}

pricing::Catalog test_catalog(const TempDir& dir) {
  return pricing::load_catalog(dir.write("prices.yaml", R"(catalog_version: 1
shapes:
  - {provider: aws, shape: small, arch: x86_64, vcpus: 2, usd_per_hour: 0.36, source: "https://example.org/p", date: 2026-06-01}
  - {provider: aws, shape: big, arch: x86_64, vcpus: 8, usd_per_hour: 1.80, source: "https://example.org/p", date: 2024-01-01}
  - {provider: aws, shape: gpu, arch: x86_64, vcpus: 4, memory_gib: 16, gpus: {model: "NVIDIA A10G", count: 1}, usd_per_hour: 1.0, source: "https://example.org/p", date: 2026-06-01}
  - {provider: oci, shape: fixed.oci, arch: x86_64, vcpus: 30, ocpus: 15, memory_gib: 240, usd_per_hour: 2.0, source: "https://example.org/o", date: 2026-06-01}
  - {provider: oci, shape: flex, arch: x86_64, flexible: {usd_per_ocpu_hour: 0.03, usd_per_gib_hour: 0.002}, source: "https://example.org/o", date: 2026-06-01}
  - {provider: aws, shape: graviton, arch: aarch64, cpu_vendor: arm, vcpus: 2, usd_per_hour: 0.3, source: "https://example.org/p", date: 2026-06-01}
  - {provider: aws, shape: intel, arch: x86_64, cpu_vendor: intel, vcpus: 2, usd_per_hour: 0.3, source: "https://example.org/p", date: 2026-06-01}
)"));
}

FleetReport build(const pricing::Catalog& catalog, const std::vector<results::Run>& runs,
                  const std::string& baseline = "", RankSettings ranking = {}) {
  ReportBuilder builder({&catalog, baseline, "2026-11-22", 365, ranking});
  for (std::size_t i = 0; i < runs.size(); ++i) builder.add_run("run" + std::to_string(i), runs[i]);
  return builder.finish({});
}

const Cell& cell_of(const FleetReport& r, const std::string& method, const std::string& config) {
  for (const auto& m : r.methods) {
    if (m.name != method) continue;
    for (std::size_t i = 0; i < r.configurations.size(); ++i) {
      if (r.configurations[i].key == config) return m.cells[i];
    }
  }
  throw std::runtime_error("no cell " + method + " " + config);
}

TEST(ReportBuilder, CostsAndRatesMatchAHandComputation) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const FleetReport r =
      build(catalog,
            {run_on("small", {method("cube", {trial(10, 1e9), trial(12, 0.8e9), trial(11, 0.9e9)})}),
             run_on("big", {method("cube", {trial(3, 4e9), trial(3.2, 3.6e9), trial(2.8, 4.4e9)})}, 8)},
            "small");
  ASSERT_EQ(r.configurations.size(), 2U);
  const Cell& small = cell_of(r, "cube", "small");
  const Cell& big = cell_of(r, "cube", "big");
  // small: median wall 11 s at $0.36/h -> $0.0011 a run; median rate 0.9e9 points/s.
  EXPECT_NEAR(*small.cost_per_run, 0.36 * 11 / 3600, 1e-12);
  EXPECT_NEAR(*small.metric.median, 0.9e9, 1);
  // $ per point = 0.36 / 3600 / 0.9e9 = 1.11e-13; quoted per 1e12 points (the cheapest >= $0.01).
  const auto& row = r.methods.front();
  EXPECT_EQ(row.metric->per, "trillion points");
  EXPECT_NEAR(*small.cost_per_unit, 0.36 / 3600 / 0.9e9 * 1e12, 1e-12);
  EXPECT_NEAR(*big.cost_per_unit, 1.80 / 3600 / 4e9 * 1e12, 1e-12);
  EXPECT_NEAR(*big.units_per_usd, 4e9 * 3600 / 1.80, 1);
  EXPECT_NEAR(*big.per_vcpu, 4e9 / 8, 1e-3);
  EXPECT_NEAR(*big.per_ocpu, 4e9 / 4, 1e-3);  // x86: 2 vCPUs per OCPU
  EXPECT_NEAR(big.speedup->value, 4e9 / 0.9e9, 1e-9);
  EXPECT_NEAR(small.speedup->value, 1.0, 1e-12);
  // big is faster (4e9 against 0.9e9: every trial apart) and named; small costs less per point
  // (0.111 against 0.125 per 1e12), by 12.5%, but three trials each cannot tell that from noise.
  ASSERT_TRUE(row.fastest);
  EXPECT_EQ(r.configurations[*row.fastest].key, "big");
  EXPECT_FALSE(row.cheapest);
  EXPECT_EQ(r.configurations[*row.cost.leader].key, "small");
  EXPECT_NEAR(row.cost.ratio->value, 0.125 / (1.0 / 9), 1e-9);
  EXPECT_LT(*row.cost.ratio->low, 1.0);
  EXPECT_EQ(big.wall.min, 2.8);
  EXPECT_EQ(big.wall.max, 3.2);
}

TEST(ReportBuilder, FlexibleShapesArePricedFromOcpusAndMemory) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const FleetReport r = build(catalog, {run_on("flex", {method("noop", {trial(0.5, std::nullopt)})}, 8)});
  const auto& c = r.configurations.front();
  EXPECT_EQ(c.ocpus, 4);
  EXPECT_NEAR(*c.pricing.usd_per_hour, 4 * 0.03 + 16 * 0.002, 1e-12);
  const Cell& noop = cell_of(r, "noop", "flex");
  EXPECT_NEAR(*noop.cost_per_run, (4 * 0.03 + 16 * 0.002) * 0.5 / 3600, 1e-15);
  EXPECT_FALSE(noop.cost_per_unit.has_value());  // no rate metric: the run is the unit
}

TEST(ReportBuilder, UnpricedFailedAndMissingAreShownNotDropped) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const FleetReport r =
      build(catalog, {run_on("small", {method("a", {trial(1, 5.0), trial(1, std::nullopt, Outcome::crashed)}),
                                       method("b", {trial(2, 1.0)})}),
                      run_on("laptop", {method("a", {trial(1, 6.0)})})});
  ASSERT_EQ(r.configurations.size(), 2U);
  const auto& laptop = r.configurations[0];
  EXPECT_EQ(laptop.key, "laptop");
  EXPECT_FALSE(laptop.pricing.usd_per_hour.has_value());
  const Cell& crashed = cell_of(r, "a", "small");
  EXPECT_FALSE(crashed.ok());
  EXPECT_EQ(crashed.outcome, Outcome::crashed);
  EXPECT_EQ(cell_status(crashed), "crashed 1/2: exit status 1");
  EXPECT_EQ(cell_of(r, "b", "laptop").trials, 0);
  const auto& a = r.methods.front();
  // The crashed cell is not ranked, which leaves laptop the only contender: no winner (issue 37).
  EXPECT_FALSE(a.fastest.has_value());
  EXPECT_EQ(a.speed.contenders, 1U);
  ASSERT_TRUE(a.speed.leader.has_value());
  EXPECT_EQ(r.configurations[*a.speed.leader].key, "laptop");
  EXPECT_FALSE(a.speed.decided);
  EXPECT_FALSE(a.cheapest.has_value());  // the only ok cell is unpriced
  bool unpriced_warned = false;
  bool old_price_warned = false;
  for (const auto& w : r.warnings) {
    unpriced_warned = unpriced_warned || w.starts_with("laptop: unpriced");
    old_price_warned = old_price_warned || w.find("days old") != std::string::npos;
  }
  EXPECT_TRUE(unpriced_warned);
  EXPECT_FALSE(old_price_warned);  // small's price is from 2026-06-01
}

TEST(ReportBuilder, OldPricesAreWarnedAbout) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const FleetReport r = build(catalog, {run_on("big", {method("a", {trial(1, 5.0)})}, 8)});
  ASSERT_EQ(r.warnings.size(), 1U);
  EXPECT_EQ(r.warnings.front().rfind("big: the price used is 1056 days old (2024-01-01", 0), 0U) << r.warnings.front();
}

TEST(ReportBuilder, OneShapeUnderSeveralLabelsIsSeveralConfigurations) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  auto a = run_on("small", {method("m", {trial(1, 1.0)})});
  auto b = run_on("small", {method("m", {trial(2, 1.0)})});
  a.info.execution_label = "gcc";
  b.info.execution_label = "clang";
  const FleetReport r = build(catalog, {a, b}, "small [gcc]");
  ASSERT_EQ(r.configurations.size(), 2U);
  EXPECT_EQ(r.configurations[0].key, "small [clang]");
  EXPECT_EQ(r.baseline, "small [gcc]");
}

results::Run measured_run(const std::string& shape, double vcpus, double memory_gib, std::optional<int> gpus) {
  auto run = run_on(shape, {method("m", {trial(1, 100.0)})}, vcpus);
  run.info.system["memory_total_bytes"] = memory_gib * (1 << 30);
  if (gpus) run.info.system_info["accelerator_count"] = *gpus;
  return run;
}

bool has_warning(const FleetReport& r, const std::string& text) {
  return std::any_of(r.warnings.begin(), r.warnings.end(), [&](const std::string& w) { return w == text; });
}

TEST(ReportBuilder, RunsThatAreNotTheirLabelledShapeAreWarnedAboutOneLineEach) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  // The same 2-CPU machine labelled as an 8-vCPU shape, as a GPU shape (its memory within what a
  // kernel keeps for itself in one run, half of it in the other) and as a 15-OCPU OCI shape.
  const FleetReport r = build(catalog, {measured_run("big", 2, 15.6, std::nullopt), measured_run("gpu", 4, 15.3, 0),
                                        measured_run("gpu", 4, 8, 0), measured_run("fixed.oci", 2, 240, std::nullopt)});
  EXPECT_TRUE(has_warning(r,
                          "big: catalog says 8 vCPUs, the run had 2; per-vCPU and per-OCPU figures divide by the "
                          "catalog's, the price is the catalog's"))
      << ::testing::PrintToString(r.warnings);
  EXPECT_TRUE(has_warning(r, "gpu: catalog says 1 GPU (NVIDIA A10G), the runs had 0; the price is the catalog's"));
  EXPECT_TRUE(has_warning(r,
                          "gpu: catalog says 16 GiB of memory, the runs had 8 GiB and 15.3 GiB; the price is the "
                          "catalog's"));
  EXPECT_TRUE(has_warning(r,
                          "fixed.oci: catalog says 30 vCPUs (15 OCPUs), the run had 2 (1 OCPU); per-vCPU and "
                          "per-OCPU figures divide by the catalog's, the price is the catalog's"));
  EXPECT_EQ(std::count_if(r.warnings.begin(), r.warnings.end(),
                          [](const std::string& w) { return w.find("catalog says") != std::string::npos; }),
            4);
  // As the warning says, per-vCPU figures divide by the catalog's vCPUs.
  EXPECT_NEAR(*cell_of(r, "m", "big").per_vcpu, 100.0 / 8, 1e-12);
  EXPECT_EQ(r.configurations[0].measured_vcpus, std::vector<double>{2});
}

// Issue 37: an x86 run labelled as a Graviton shape was priced as one without a word, and so was an
// Intel shape's run on AMD.
TEST(ReportBuilder, ARunOnAnotherArchitectureOrCpuVendorThanItsShapeIsWarnedAbout) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const auto on = [](const std::string& shape, const char* arch, const char* vendor) {
    auto run = run_on(shape, {method("m", {trial(1, 100.0)})}, 2);
    run.info.system["architecture"] = arch;
    run.info.system["cpu_vendor"] = vendor;
    return run;
  };
  const FleetReport r = build(catalog, {on("graviton", "x86_64", "AuthenticAMD"), on("intel", "x86_64", "AuthenticAMD"),
                                        on("flex", "aarch64", "")});
  EXPECT_TRUE(has_warning(r,
                          "graviton: catalog says aarch64, the run ran on x86_64; the price is the "
                          "catalog's"))
      << ::testing::PrintToString(r.warnings);
  EXPECT_TRUE(has_warning(r,
                          "intel: catalog says Intel CPUs, the run had AuthenticAMD; the price is the "
                          "catalog's"))
      << ::testing::PrintToString(r.warnings);
  EXPECT_TRUE(has_warning(r, "flex: catalog says x86_64, the run ran on aarch64; the price is the catalog's"))
      << "a flexible shape's architecture is checked too: " << ::testing::PrintToString(r.warnings);
  // The graviton run's vendor is the architecture's mismatch, said once.
  EXPECT_EQ(std::count_if(r.warnings.begin(), r.warnings.end(),
                          [](const std::string& w) { return w.rfind("graviton:", 0) == 0; }),
            1)
      << ::testing::PrintToString(r.warnings);
  const FleetReport right = build(catalog, {on("intel", "x86_64", "GenuineIntel"), on("graviton", "aarch64", "")});
  for (const auto& w : right.warnings) EXPECT_EQ(w.find("catalog says"), std::string::npos) << w;
}

TEST(ReportBuilder, AShapeThatMatchesItsRunIsNotWarnedAbout) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const FleetReport r = build(catalog, {measured_run("gpu", 4, 15.4, 1), measured_run("small", 2, 3.7, std::nullopt)});
  for (const auto& w : r.warnings) EXPECT_EQ(w.find("catalog says"), std::string::npos) << w;
}

TEST(ReportBuilder, AnUnknownShapeNamesTheNearestCatalogShape) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const FleetReport r = build(catalog, {run_on("small-2", {method("m", {trial(1, 1.0)})})});
  const auto& reason = r.configurations.front().pricing.unpriced_reason;
  EXPECT_EQ(reason, "'small-2' is not in the catalog; did you mean small?");
}

TEST(ReportFigures, WorkScaleMovesSiPrefixesOrCountsThousands) {
  EXPECT_EQ(work_scale("GFLOP", 1e-6).second, "PFLOP");
  EXPECT_EQ(work_scale("GFLOP", 1e-4).second, "TFLOP");
  EXPECT_EQ(work_scale("images", 1e-4).second, "1,000 images");
  EXPECT_EQ(work_scale("points", 1e-13).second, "trillion points");
  EXPECT_EQ(work_scale("items", 1e-8).second, "million items");
  EXPECT_EQ(work_scale("points", 1e-16).second, "1e15 points");
  EXPECT_EQ(work_scale("points", 0.5).second, "points");
}

TEST(ReportWriters, HostileNamesStayValidInEveryFormat) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  const std::string hostile = "m|\"<script>\xff,\n";
  auto run = run_on(hostile, {method(hostile, {trial(1, 1.0)})});
  const FleetReport r = build(catalog, {run});
  std::ostringstream html;
  write_html(r, html);
  // One script, the page's own sorter; the name's "<script>" is text.
  EXPECT_EQ(html.str().find("<script>"), std::string::npos);
  const auto first = html.str().find("<script");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(html.str().find("<script", first + 1), std::string::npos);
  EXPECT_NE(html.str().find("&lt;script&gt;\xEF\xBF\xBD"), std::string::npos);
  std::ostringstream csv;
  write_csv(r, csv);
  // One quoted CSV field; the line break, a control character, is '?' as in every text output.
  EXPECT_NE(csv.str().find("\"m|\"\"<script>\xff,?\""), std::string::npos);
  std::ostringstream md;
  write_markdown(r, md);
  EXPECT_NE(md.str().find("m\\|\"&lt;script&gt;"), std::string::npos);
  EXPECT_EQ(md.str().find("<script>"), std::string::npos);
  EXPECT_NO_THROW(to_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// Cells of a Markdown table row: the '|' not escaped as "\\|".
std::size_t markdown_cells(const std::string& line) {
  std::size_t bars = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++bars;
  }
  return bars - 1;
}

TEST(ReportWriters, EveryMarkdownRowHasItsHeadersColumns) {
  TempDir dir;
  const auto catalog = test_catalog(dir);
  auto labelled = run_on("small", {method("m|x", {trial(1, 1.0)})});
  labelled.info.execution_label = "gcc";
  const FleetReport r =
      build(catalog, {labelled, run_on("flex", {method("m|x", {trial(2, 1.0)})}),
                      run_on("unknown", {method("m|x", {trial(3, std::nullopt, Outcome::crashed)})})});
  std::ostringstream md;
  write_markdown(r, md);
  std::istringstream lines(md.str());
  std::size_t header = 0;
  int rows = 0;
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("|")) {
      header = 0;
      continue;
    }
    if (header == 0) {
      header = markdown_cells(line);
    } else {
      EXPECT_EQ(markdown_cells(line), header) << line;
      ++rows;
    }
  }
  EXPECT_GE(rows, 8);  // 3 configurations + separator, 3 cells + separator
}

TEST(HtmlText, InvalidUtf8IsReplacedAndValidTextKept) {
  EXPECT_EQ(html::escape("caf\xc3\xa9 <&>"), "caf\xc3\xa9 &lt;&amp;&gt;");
  EXPECT_EQ(html::escape("caf\xe9"), "caf\xEF\xBF\xBD");
  EXPECT_EQ(html::escape("\xc0\xaf"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
  EXPECT_EQ(html::escape("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(html::escape("日本"), "日本");
}

}  // namespace
}  // namespace perfzero::fleet_report::report_builder_test
