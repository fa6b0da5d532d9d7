// perfzero report on real runs of the real binary: every figure against a hand computation from
// the runs' own journals, unpriced shapes, failures, broken catalogs and broken result folders.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::report_test {
namespace {

namespace fs = std::filesystem;

const fs::path kScratch = fs::temp_directory_path() / ("perfzero-report-test-" + std::to_string(::getpid()));
const std::string kCatalog = (kSourceDir / "infra/pricing/catalog.yaml").string();

// An external command that reports a rate it is told, so the expected cost per unit is exact.
fs::path rate_suite(const std::string& name, double rate) {
  const fs::path file = kScratch / (name + ".yaml");
  std::ofstream(file)
      << "methods:\n"
         "  - name: work.rate\n"
         "    command: [/bin/sh, -c, 'printf \"{\\\"metrics\\\":[{\\\"name\\\":\\\"items_per_second\\\","
         "\\\"value\\\":%s,\\\"unit\\\":\\\"items/s\\\"}]}\" \"$RATE\" > "
         "\"$PERFZERO_RESULT_FILE\"']\n"
         "    env: {RATE: \""
      << rate << "\"}\n";
  return file;
}

fs::path run_on(const std::string& shape, double rate, const std::vector<std::string>& extra = {}) {
  const fs::path out = kScratch / "runs" / shape;
  std::vector<std::string> args{"--config",
                                rate_suite(shape, rate).string(),
                                "--benchmark_num_trials=3",
                                "--instance_type=" + shape,
                                "--output_dir",
                                out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto f = run_perfzero(args, kScratch / ("run-" + shape));
  EXPECT_EQ(f.exit_code, extra.empty() ? 0 : 1) << f.err;
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 == 1 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Wall times of one case's trials, as the run's journal recorded them.
std::vector<double> journal_wall_times(const fs::path& run, const std::string& case_name) {
  std::vector<double> walls;
  std::ifstream in(run / "journal.ndjson");
  for (std::string line; std::getline(in, line);) {
    const auto e = nlohmann::json::parse(line);
    if (e.value("event", "") == "trial" && e.value("case", "") == case_name && !e["trial"].value("warmup", false)) {
      walls.push_back(e["trial"]["wall_time"].get<double>());
    }
  }
  return walls;
}

const nlohmann::json& cell(const nlohmann::json& report, const std::string& method, const std::string& config) {
  for (const auto& m : report["methods"]) {
    if (m["name"] != method) continue;
    for (const auto& c : m["cells"]) {
      if (c["configuration"] == config) return c;
    }
  }
  throw std::runtime_error("no cell " + method + " on " + config);
}

class ReportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    fs::remove_all(kScratch);
    fs::create_directories(kScratch);
    small = run_on("c7i.large", 1000);
    big = run_on("c7i.2xlarge", 5000);
    laptop = run_on("my-laptop", 800);
  }
  static void TearDownTestSuite() { fs::remove_all(kScratch); }
  static inline fs::path small, big, laptop;
};

TEST_F(ReportTest, EveryFigureMatchesAHandComputation) {
  const fs::path out = kScratch / "report";
  // --use_flagged: the figures are checked against every trial's journal line, disturbed or not (a
  // busy test machine flags some). --run_noise 0: the intervals are the trials' bootstrap, computed
  // by hand below (one run per shape would otherwise be widened by the default between-run noise).
  const auto f = run_perfzero({"report", (kScratch / "runs").string(), "--catalog", kCatalog, "--out", out.string(),
                               "--baseline", "c7i.large", "--today", "2025-06-01", "--use_flagged", "--run_noise", "0"},
                              kScratch / "report-cmd");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  for (const char* name : {"report.md", "report.csv", "report.json", "report.html"})
    EXPECT_TRUE(fs::exists(out / name));
  const auto report = read_json(out / "report.json");
  EXPECT_EQ(report["runs_read"], 3);
  const double small_price = 0.17850 / 2;  // c7i.large in the shipped catalog: 2 vCPUs, $0.08925/h
  const double big_price = 0.357;          // c7i.2xlarge: 8 vCPUs
  const auto& s = cell(report, "work.rate", "c7i.large");
  const auto& b = cell(report, "work.rate", "c7i.2xlarge");
  const double small_wall = median(journal_wall_times(small, "work.rate"));
  EXPECT_NEAR(s["wall_time_s"]["median"].get<double>(), small_wall, 1e-9);
  EXPECT_NEAR(s["cost_per_run_usd"].get<double>(), small_price * small_wall / 3600, 1e-15);
  // $ per item: price / 3600 / rate; the cheapest (big: 0.357/3600/5000 = 1.98e-8) quoted per 1e6.
  const auto& rate_method = report["methods"][0];
  EXPECT_EQ(rate_method["main_metric"]["cost_per"], "million items");
  EXPECT_NEAR(s["cost_per_unit_usd"].get<double>(), small_price / 3600 / 1000 * 1e6, 1e-12);
  EXPECT_NEAR(b["cost_per_unit_usd"].get<double>(), big_price / 3600 / 5000 * 1e6, 1e-12);
  EXPECT_NEAR(b["units_per_usd"].get<double>(), 5000 * 3600 / big_price, 1e-6);
  EXPECT_NEAR(b["per_vcpu"].get<double>(), 5000.0 / 8, 1e-9);
  EXPECT_NEAR(b["per_ocpu"].get<double>(), 5000.0 / 4, 1e-9);
  EXPECT_NEAR(b["speedup"].get<double>(), 5.0, 1e-12);
  // Every trial reports the same rate: the intervals are exact, and 5x and 1.25x are past --min_change.
  EXPECT_EQ(b["speedup_interval"]["low"], 5.0);
  EXPECT_EQ(b["speedup_tie"], false);
  EXPECT_EQ(rate_method["fastest"], "c7i.2xlarge");
  EXPECT_EQ(rate_method["cheapest"], "c7i.2xlarge");  // 1.98e-8 vs 2.48e-8 $ per item
  EXPECT_NEAR(rate_method["cheapest_ranking"]["ratio"]["value"].get<double>(),
              (small_price / 1000) / (big_price / 5000), 1e-9);
  EXPECT_EQ(rate_method["cheapest_ranking"]["against"], "c7i.large");
  EXPECT_EQ(s["main_metric_values"].size(), 3U);  // every trial, not only the median
  // The shape not in the catalog is reported, unpriced, with its performance.
  const auto& l = cell(report, "work.rate", "my-laptop");
  EXPECT_EQ(l["status"], "ok");
  EXPECT_TRUE(l["cost_per_run_usd"].is_null());
  EXPECT_NEAR(l["main_metric"]["median"].get<double>(), 800, 1e-9);
  bool unpriced = false;
  for (const auto& c : report["configurations"]) {
    if (c["key"] == "my-laptop") unpriced = c["price"]["usd_per_hour"].is_null();
  }
  EXPECT_TRUE(unpriced);
  EXPECT_NE(f.err.find("my-laptop: unpriced"), std::string::npos) << f.err;
  const std::string csv = slurp(out / "report.csv");
  EXPECT_NE(csv.find("work.rate,c7i.2xlarge,aws,c7i.2xlarge,,8,4,0.357,"), std::string::npos) << csv;
}

TEST_F(ReportTest, FailuresShowInEveryView) {
  const fs::path crashed = kScratch / "runs-crash";
  const auto run = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_crash,sanity.Sanity.benchmark_noop",
                                 "--instance_type=c7g.large", "--output_dir", (crashed / "a").string()},
                                kScratch / "crash-run");
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const fs::path out = kScratch / "report-crash";
  const auto f = run_perfzero(
      {"report", crashed.string(), small.string(), "--catalog", kCatalog, "--out", out.string(), "--use_flagged"},
      kScratch / "crash-report");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto report = read_json(out / "report.json");
  const auto& c = cell(report, "sanity.Sanity.benchmark_crash", "c7g.large");
  EXPECT_EQ(c["status"], "not succeeded");
  EXPECT_EQ(c["outcome"], "crashed");
  EXPECT_EQ(cell(report, "sanity.Sanity.benchmark_crash", "c7i.large")["status"], "not run");
  EXPECT_NE(slurp(out / "report.md").find("crashed 1/1"), std::string::npos);
  EXPECT_NE(slurp(out / "report.html").find("crashed 1/1"), std::string::npos);
  EXPECT_NE(slurp(out / "report.csv")
                .find("sanity.Sanity.benchmark_crash,c7g.large,aws,c7g.large,,2,2,0.0725,2025-01-15,"
                      "not succeeded,crashed"),
            std::string::npos);
}

TEST_F(ReportTest, BrokenInputsAreNamedAndTheRestReported) {
  const fs::path bad = kScratch / "bad";
  fs::create_directories(bad / "empty");
  fs::create_directories(bad / "garbage");
  std::ofstream(bad / "garbage" / "run.json") << "{not json";
  fs::create_directories(bad / "fifo");
  ASSERT_EQ(::mkfifo((bad / "fifo" / "run.json").c_str(), 0600), 0);
  const auto f = run_perfzero({"report", (bad / "empty").string(), (bad / "garbage").string(), (bad / "fifo").string(),
                               small.string(), "--catalog", kCatalog, "--format", "md"},
                              kScratch / "bad-report");
  EXPECT_EQ(f.exit_code, 1) << f.err;
  EXPECT_NE(f.err.find("empty: holds no perfzero run"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("garbage"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("fifo: run.json is not a regular file"), std::string::npos) << f.err;
  EXPECT_NE(f.out.find("| c7i.large"), std::string::npos) << f.out;  // the good run is still reported

  const auto none = run_perfzero({"report", (bad / "empty").string()}, kScratch / "none-report");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("error: no run could be read"), std::string::npos) << none.err;
}

TEST_F(ReportTest, ABrokenCatalogStopsWithTheEntryAndField) {
  const fs::path catalog = kScratch / "broken-catalog.yaml";
  std::ofstream(catalog) << "catalog_version: 1\nshapes:\n  - {provider: aws, shape: c7i.large, arch: x86_64, vcpus: 2,"
                            " usd_per_hour: -1, source: 'https://x.org', date: 2025-01-01}\n";
  const auto f = run_perfzero({"report", small.string(), "--catalog", catalog.string()}, kScratch / "broken-catalog");
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_NE(f.err.find("broken-catalog.yaml:3:"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("shapes[0] (c7i.large).usd_per_hour: expected a positive number of at most 1e+09, got '-1'"),
            std::string::npos)
      << f.err;
  // A stray ',' is a syntax error at its line (it was read as an empty catalog), and a second
  // document is refused (it was silently ignored).
  const std::vector<std::pair<std::string, std::string>> unreadable{
      {"# prices\n,\n", "comma-catalog.yaml:2:1: YAML syntax error: unexpected ','"},
      {"catalog_version: 1\nshapes: []\n---\ncatalog_version: 1\n",
       "two-docs-catalog.yaml:3:1: holds 2 YAML documents ('---'); a price catalog holds exactly one"}};
  for (std::size_t i = 0; i < unreadable.size(); ++i) {
    const fs::path file = kScratch / (i == 0 ? "comma-catalog.yaml" : "two-docs-catalog.yaml");
    std::ofstream(file) << unreadable[i].first;
    RunningPerfzero p({"report", small.string(), "--catalog", file.string()},
                      kScratch / ("unreadable" + std::to_string(i)));
    const auto r = p.wait_bounded(std::chrono::seconds(60), 1L << 20);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(unreadable[i].second), std::string::npos) << r.err;
  }
  const auto usage = run_perfzero({"report"}, kScratch / "usage");
  EXPECT_EQ(usage.exit_code, 2);
  EXPECT_NE(usage.err.find("RESULT_DIR is required"), std::string::npos) << usage.err;
}

TEST_F(ReportTest, AReportThatCannotBeDeliveredIsAnOutputError) {
  const std::string perfzero = (kBinDir / "harness" / "perfzero").string();
  const std::string err = (kScratch / "undelivered.err").string();
  // Markdown to a full disk (/dev/full), and to a closed stdout: neither may exit 0.
  for (const std::string redirect : {"> /dev/full", ">&-"}) {
    const std::string command =
        "'" + perfzero + "' report '" + small.string() + "' --no_catalog " + redirect + " 2>'" + err + "'";
    const int status = std::system(command.c_str());
    EXPECT_EQ(WEXITSTATUS(status), 4) << redirect;
    EXPECT_NE(slurp(err).find("cannot write the report to stdout"), std::string::npos) << redirect << slurp(err);
  }
}

// `report --format elasticsearch,influx,openmetrics` exports every run it reads exactly as `run --report=...`
// exports each one: the bulk and line-protocol files are the runs' own, concatenated in the order read;
// OpenMetrics is the latest run's.
TEST_F(ReportTest, DashboardExportsCoverEveryRunRead) {
  const fs::path root = kScratch / "exported";
  for (const std::string shape : {"a-first", "b-second"}) {
    const auto f = run_perfzero({"--config", rate_suite("export-" + shape, 100).string(), "--benchmark_num_trials=2",
                                 "--instance_type=" + shape, "--report=perfzero,json,elasticsearch,influx,openmetrics",
                                 "--output_dir", (root / shape).string()},
                                kScratch / ("export-run-" + shape));
    ASSERT_EQ(f.exit_code, 0) << f.err;
  }
  const fs::path out = kScratch / "exports-report";
  const auto f = run_perfzero({"report", root.string(), "--no_catalog", "--out", out.string(), "--format",
                               "md,elasticsearch,influx,openmetrics"},
                              kScratch / "exports-report-cmd");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const fs::path a = root / "a-first";
  const fs::path b = root / "b-second";
  EXPECT_EQ(slurp(out / "elasticsearch_bulk.ndjson"),
            slurp(a / "elasticsearch_bulk.ndjson") + slurp(b / "elasticsearch_bulk.ndjson"));
  EXPECT_EQ(slurp(out / "influx.lp"), slurp(a / "influx.lp") + slurp(b / "influx.lp"));
  EXPECT_EQ(slurp(out / "perfzero.prom"), slurp(b / "perfzero.prom"));
  const auto mapping = read_json(out / "elasticsearch_template.json")["template"]["mappings"]["properties"];
  EXPECT_EQ(mapping, read_json(a / "elasticsearch_template.json")["template"]["mappings"]["properties"]);
  EXPECT_TRUE(fs::exists(out / "report.md"));
  for (const auto& entry : fs::directory_iterator(out)) EXPECT_NE(entry.path().extension(), ".partial") << entry.path();
  // A report that cannot read any run leaves no export behind.
  const fs::path empty = kScratch / "nothing-to-export";
  fs::create_directories(empty);
  const fs::path none = kScratch / "exports-none";
  EXPECT_EQ(run_perfzero({"report", empty.string(), "--no_catalog", "--out", none.string(), "--format", "influx"},
                         kScratch / "exports-none-cmd")
                .exit_code,
            1);
  EXPECT_FALSE(fs::exists(none / "influx.lp"));
  EXPECT_FALSE(fs::exists(none / "influx.lp.partial"));
}

TEST_F(ReportTest, OldPricesAndNonUtf8LabelsAreHandled) {
  const fs::path odd = kScratch / "runs-odd";
  const auto run = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--instance_type=c7i.large",
                                 "--execution_label=caf\xe9", "--output_dir", odd.string()},
                                kScratch / "odd-run");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const fs::path out = kScratch / "report-odd";
  const auto f =
      run_perfzero({"report", odd.string(), "--catalog", kCatalog, "--out", out.string(), "--today", "2026-11-22"},
                   kScratch / "odd-report");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_NE(f.err.find("c7i.large: the price used is 676 days old (2025-01-15"), std::string::npos) << f.err;
  const auto report = read_json(out / "report.json");  // parses: valid UTF-8
  EXPECT_EQ(report["configurations"][0]["label"], "caf\xEF\xBF\xBD");
  EXPECT_NE(slurp(out / "report.html").find("caf\xEF\xBF\xBD"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::testing::report_test
