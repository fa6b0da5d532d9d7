// The cost of the experiment and --estimate on the real binary (docs/report.md): a real run carrying
// the instance timeline the fleet runner writes is billed as a hand computation from the shipped
// catalog says; a broken timeline is named and the rest reported; a planned suite is priced from the
// history a real run was ingested into.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <fstream>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::report_experiment_test {
namespace {

namespace fs = std::filesystem;

const std::string kCatalog = (kSourceDir / "infra/pricing/catalog.yaml").string();
// c7i.large in the shipped catalog: $0.08925 an hour; AWS bills per second, at least 60 s.
constexpr double kC7iLarge = 0.08925;

fs::path suite(TempDir& dir) {
  return dir.write("suite.yaml", R"(defaults: {trials: 3, warmup_trials: 1, timeout: 2m}
methods:
  - {name: nap, command: [/bin/sleep, "0.05"], output: none}
  - {name: untimed, command: [/bin/true], output: none, timeout: 90s}
)");
}

// A real run on "c7i.large", as the fleet runs it.
fs::path real_run(TempDir& dir) {
  const fs::path out = dir.path() / "fleet" / "aws" / "c7i.large" / "run-1";
  const auto f = run_perfzero({"--config=" + suite(dir).string(), "--platform_name=aws", "--instance_type=c7i.large",
                               "--system_name=c7i.large", "--output_dir=" + out.string()},
                              dir.path());
  EXPECT_EQ(f.exit_code, 0) << f.err;
  return out;
}

double execution_timestamp(const fs::path& run) {
  return nlohmann::json::parse(std::ifstream(run / "run.json")).at("execution_timestamp").get<double>();
}

nlohmann::json read_json(const fs::path& file) { return nlohmann::json::parse(std::ifstream(file)); }

TEST(ReportExperiment, ARunsInstanceTimelineIsBilledBootToUploadAsTheCatalogSays) {
  TempDir dir;
  const fs::path run = real_run(dir);
  const double start = execution_timestamp(run);
  fs::create_directories(run / "instances");
  // Booted 95 s before the run started, uploaded 200.4 s after boot: billed 296 s.
  std::ofstream(run / "instances" / "boot-1.json") << fmt::format(
      R"({{"instance_timeline_version": 1, "instance": "ip-10-0-0-7", "capacity": "on_demand", "booted_at": {:.3f},
          "container_started_at": {:.3f}, "upload_ended_at": {:.3f}, "end": "done"}})",
      start - 95, start - 2, start - 95 + 295.4);
  const auto f = run_perfzero(
      {"report", (dir.path() / "fleet").string(), "--catalog=" + kCatalog, "--out=" + (dir.path() / "report").string()},
      dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto report = read_json(dir.path() / "report" / "report.json");
  EXPECT_EQ(report.at("report_schema_version"), "1.4.0");
  const auto& e = report.at("configurations").at(0).at("experiment");
  EXPECT_EQ(e.at("instances"), 1);
  EXPECT_DOUBLE_EQ(e.at("billed_seconds").get<double>(), 296);
  EXPECT_NEAR(e.at("usd").get<double>(), 296 * kC7iLarge / 3600, 1e-12);
  EXPECT_TRUE(e.at("usd_spot").is_null());  // the shipped catalog has no AWS spot price
  // The first trial (the warm-up) started a moment after the run did: about 95 s after boot.
  EXPECT_NEAR(e.at("before_first_trial_seconds").get<double>(), 95, 5);
  EXPECT_NEAR(report.at("experiment_total").at("usd").get<double>(), e.at("usd").get<double>(), 1e-12);
  std::ifstream md(dir.path() / "report" / "report.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("## The cost of the experiment"), std::string::npos) << text;
  EXPECT_NE(text.find("per second, 60 s minimum (aws"), std::string::npos) << text;
  std::ifstream html(dir.path() / "report" / "report.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("<table id=experiment"), std::string::npos);
}

TEST(ReportExperiment, ABrokenTimelineIsNamedAndTheRestIsStillReported) {
  TempDir dir;
  const fs::path run = real_run(dir);
  fs::create_directories(run / "instances");
  std::ofstream(run / "instances" / "bad.json") << R"({"instance_timeline_version": 1, "booted_at": "yesterday"})";
  const auto f = run_perfzero({"report", run.string(), "--catalog=" + kCatalog}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;  // an input that could not be read, as for a broken run
  EXPECT_NE(f.err.find("bad.json: not an instance timeline: 'booted_at' must be seconds since the epoch"),
            std::string::npos)
      << f.err;
  EXPECT_NE(f.out.find("## Methods"), std::string::npos);
  EXPECT_EQ(f.out.find("## The cost of the experiment"), std::string::npos);  // no timeline left to bill
}

TEST(ReportEstimate, APlannedSuiteIsPricedFromTheHistoryElseFromItsTimeouts) {
  TempDir dir;
  const fs::path run = real_run(dir);
  const std::string db = (dir.path() / "history.db").string();
  ASSERT_EQ(run_perfzero({"history", "ingest", "--db", db, run.string()}, dir.path()).exit_code, 0);
  const auto f =
      run_perfzero({"report", "--estimate", suite(dir).string(), "--shapes", "c7i.large,c7i.xlarge", "--history", db,
                    "--catalog=" + kCatalog, "--overhead_minutes=4", "--out=" + (dir.path() / "estimate").string()},
                   dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto e = read_json(dir.path() / "estimate" / "estimate.json");
  EXPECT_EQ(e.at("runs"), 8);  // 2 cases x (3 trials + 1 warm-up)
  // The hand computation: 4 runs of each case at the median wall time the run's summary gives.
  double trials = 0;
  const auto summary = read_json(run / "summary.json");
  for (const auto& m : summary.at("methods")) {
    trials += 4 * m.at("wall_time").at("median").get<double>();
  }
  const auto& measured = e.at("shapes").at(0);
  EXPECT_EQ(measured.at("cases_from_history"), 2);
  EXPECT_NEAR(measured.at("trials_seconds").get<double>(), trials, 1e-6);
  const double billed = std::ceil(trials + 240);
  EXPECT_DOUBLE_EQ(measured.at("billed_seconds").get<double>(), billed);
  EXPECT_NEAR(measured.at("usd_on_demand").get<double>(), billed * kC7iLarge / 3600, 1e-12);
  // No run on c7i.xlarge: the timeouts bound it (4 x 120 s + 4 x 90 s), and it says so.
  const auto& bounded = e.at("shapes").at(1);
  EXPECT_EQ(bounded.at("cases_from_timeouts"), 2);
  EXPECT_DOUBLE_EQ(bounded.at("trials_seconds").get<double>(), 4 * 120 + 4 * 90);
  EXPECT_NEAR(bounded.at("usd_on_demand").get<double>(), (840 + 240) * 0.1785 / 3600, 1e-12);
  EXPECT_NE(bounded.at("notes").at(0).get<std::string>().find("upper bound"), std::string::npos);
  std::ifstream md(dir.path() / "estimate" / "estimate.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("Every figure is an estimate"), std::string::npos) << text;
}

// Every shipped suite that `validate` accepts is estimated too, built-in methods included (issue 37:
// "no installed worker runs sanity.Sanity.benchmark_noop" for cpu_smoke.yaml, exit 2).
TEST(ReportEstimate, EveryShippedSuiteThatValidatesIsEstimated) {
  TempDir dir;
  int estimated = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSourceDir / "benchmarks" / "suites")) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string suite = entry.path().string();
    if (run_perfzero({"validate", suite}, dir.path()).exit_code != 0) continue;  // a worker not built here
    const auto f =
        run_perfzero({"report", "--estimate", suite, "--shapes", "c7i.large", "--catalog=" + kCatalog}, dir.path());
    EXPECT_EQ(f.exit_code, 0) << suite << "\n" << f.out << f.err;
    EXPECT_NE(f.out.find("| c7i.large | aws |"), std::string::npos) << suite << "\n" << f.out;
    ++estimated;
  }
  EXPECT_GE(estimated, 3) << "cpu_smoke, cpu_standard and peer_comparison validate on any build";
}

TEST(ReportEstimate, BadFlagsAreOneLineUsageErrors) {
  TempDir dir;
  const std::string s = suite(dir).string();
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"report", "--estimate", s}, "needs --shapes"},
           {{"report", "--estimate", s, "--shapes", "c7i.large", "somewhere"}, "reads no RESULT_DIR"},
           {{"report", "somewhere", "--shapes", "c7i.large"}, "goes with --estimate"},
           {{"report"}, "RESULT_DIR is required"},
           {{"report", "--estimate", s, "--shapes", "c7i.large", "--history", "/nonexistent/h.db"},
            "no results database at /nonexistent/h.db"},
           {{"report", "--estimate", s, "--shapes", "c7i.large", "--overhead_minutes=-1"}, "overhead_minutes"}}) {
    const auto f = run_perfzero(args, dir.path());
    EXPECT_EQ(f.exit_code, 2) << says << ": " << f.err;
    EXPECT_NE(f.err.find(says), std::string::npos) << f.err;
    EXPECT_EQ(std::count(f.err.begin(), f.err.end(), '\n'), 1) << f.err;
  }
}

}  // namespace
}  // namespace perfzero::testing::report_experiment_test
