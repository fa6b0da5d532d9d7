// perfzero report must not crown a winner from noise (issue 19, items 5 and 6), checked on the
// real binary: runs of one machine under several labels are a tie in every output, a clear change
// is named with its interval, disturbed trials are left out unless kept, and a run that is not the
// shape it is labelled with is named on stderr, one line per figure.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "perfzero_runner.hpp"
#include "report_runs.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::report_trust_test {
namespace {

namespace fs = std::filesystem;

const fs::path kScratch = fs::temp_directory_path() / ("perfzero-report-trust-" + std::to_string(::getpid()));
class ReportTrustTest : public report_runs::ReportRunsTest<kScratch> {};

TEST_F(ReportTrustTest, OneMachineUnderFiveLabelsIsATieInEveryOutput) {
  for (const std::string shape :
       {"c7i.large", "c7i.xlarge", "n2-standard-4", "VM.Standard.E4.Flex", "VM.Standard.E5.Flex"}) {
    run_as(shape, 4.44e8, 0.2, "same");
  }
  const auto f = report({(kScratch / "same").string(), "--baseline", "c7i.large"}, "same-report");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto json = read_json(kScratch / "same-report" / "report.json");
  const auto& method = json["methods"][0];
  EXPECT_TRUE(method["fastest"].is_null());  // was one of the five, "1.39x"
  const auto& ranking = method["fastest_ranking"];
  EXPECT_FALSE(ranking["decided"].get<bool>());
  EXPECT_LT(ranking["ratio"]["low"].get<double>(), 1.0);
  EXPECT_GT(ranking["ratio"]["high"].get<double>(), 1.0);
  EXPECT_TRUE(ranking["ratio"]["tie"].get<bool>());
  for (const auto& cell : method["cells"]) {
    if (cell["configuration"] == "c7i.large") continue;
    EXPECT_TRUE(cell["speedup_tie"].get<bool>()) << cell["configuration"];
    EXPECT_LT(cell["speedup_interval"]["low"].get<double>(), 1.0) << cell["configuration"];
  }
  EXPECT_EQ(json["settings"]["min_change"], 0.05);
  const std::string md = slurp(kScratch / "same-report" / "report.md");
  EXPECT_NE(md.find("**Fastest**: tie: 1.00x ["), std::string::npos) << md;
  EXPECT_EQ(md.find("⚡fastest"), std::string::npos) << md;
  const std::string csv = slurp(kScratch / "same-report" / "report.csv");
  EXPECT_NE(csv.find(",speedup_low,speedup_high,speedup_tie,"), std::string::npos);
  // The "fastest" column: "tie" for the two told apart least, "yes" for nobody.
  std::istringstream rows(csv);
  std::string header;
  std::getline(rows, header);
  const auto columns = [](const std::string& line) {
    std::vector<std::string> out;
    std::istringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) out.push_back(field);
    return out;
  };
  const auto names = columns(header);
  const auto fastest = std::find(names.begin(), names.end(), "fastest") - names.begin();
  int ties = 0;
  for (std::string line; std::getline(rows, line);) {
    const auto fields = columns(line);
    ASSERT_GT(fields.size(), static_cast<std::size_t>(fastest)) << line;
    EXPECT_NE(fields[fastest], "yes") << line;
    ties += fields[fastest] == "tie" ? 1 : 0;
  }
  EXPECT_EQ(ties, 2);
  const std::string html = slurp(kScratch / "same-report" / "report.html");
  EXPECT_NE(html.find("tie for fastest"), std::string::npos);
  EXPECT_EQ(html.find("class=\"tag fast\""), std::string::npos);
}

TEST_F(ReportTrustTest, AClearChangeIsNamedAndMinChangeDecidesWhatIsClear) {
  run_as("c7i.large", 1000, 0, "apart");   // every trial exactly 1000
  run_as("c7i.xlarge", 1030, 0, "apart");  // and 1030: 3% apart, no noise at all
  const auto tie = report({(kScratch / "apart").string(), "--run_noise", "0"}, "apart-5");
  ASSERT_EQ(tie.exit_code, 0) << tie.err;
  const auto five = read_json(kScratch / "apart-5" / "report.json")["methods"][0];
  EXPECT_TRUE(five["fastest"].is_null());  // the interval [1.03, 1.03] excludes 1, but 3% < 5%
  EXPECT_EQ(five["fastest_ranking"]["ratio"]["low"], 1.03);
  // One run each: within the default between-run noise (25%), whatever the trials say (issue 37).
  const auto floor = report({(kScratch / "apart").string(), "--min_change", "2"}, "apart-floor");
  ASSERT_EQ(floor.exit_code, 0) << floor.err;
  EXPECT_TRUE(read_json(kScratch / "apart-floor" / "report.json")["methods"][0]["fastest"].is_null());
  const auto named = report({(kScratch / "apart").string(), "--min_change", "2", "--run_noise", "0"}, "apart-2");
  ASSERT_EQ(named.exit_code, 0) << named.err;
  const auto two = read_json(kScratch / "apart-2" / "report.json")["methods"][0];
  EXPECT_EQ(two["fastest"], "c7i.xlarge");
  EXPECT_NE(slurp(kScratch / "apart-2" / "report.md").find("c7i.xlarge: 1.03x [1.03x, 1.03x] the speed of c7i.large"),
            std::string::npos);
  const auto bad = report({(kScratch / "apart").string(), "--min_change", "-1"}, "apart-bad");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--min_change"), std::string::npos) << bad.err;
  for (const char* flag : {"--min_change", "--run_noise"}) {  // NaN passes a range check: refused by name
    const auto nan = report({(kScratch / "apart").string(), flag, "nan"}, "apart-nan");
    EXPECT_EQ(nan.exit_code, 2) << nan.err;
    EXPECT_NE(nan.err.find(std::string(flag) + ": expected a percentage"), std::string::npos) << nan.err;
  }
}

TEST_F(ReportTrustTest, DisturbedTrialsAreLeftOutUnlessUseFlagged) {
  const fs::path run = run_as("c7i.large", 1000, 0, "busy");
  // The host_busy sampler's flag on trial 1, whose rate a busy host cut to a tenth.
  const fs::path journal = run / "journal.ndjson";
  std::string text = slurp(journal);
  const auto flags = text.find("\"flags\":[]");
  ASSERT_NE(flags, std::string::npos);
  text.replace(flags, 10, "\"flags\":[\"host_busy\"]");
  const auto value = text.find("\"value\":1000.0", flags);
  ASSERT_NE(value, std::string::npos) << text;
  text.replace(value, 14, "\"value\":100.0");
  std::ofstream(journal, std::ios::trunc) << text;

  ASSERT_EQ(report({run.string()}, "busy-report").exit_code, 0);
  const auto left_out = read_json(kScratch / "busy-report" / "report.json")["methods"][0]["cells"][0];
  EXPECT_EQ(left_out["trials_left_out"], 1);
  EXPECT_EQ(left_out["disturbances"]["host_busy"], 1);
  EXPECT_EQ(left_out["main_metric"]["count"], 4);
  EXPECT_EQ(left_out["main_metric"]["min"], 1000.0);
  EXPECT_NE(slurp(kScratch / "busy-report" / "report.md").find("ok; 1 of 5 trials host busy, left out"),
            std::string::npos);

  ASSERT_EQ(report({run.string(), "--use_flagged"}, "busy-kept").exit_code, 0);
  const auto kept = read_json(kScratch / "busy-kept" / "report.json");
  EXPECT_EQ(kept["settings"]["use_flagged"], true);
  const auto& cell = kept["methods"][0]["cells"][0];
  EXPECT_EQ(cell["trials_flagged_kept"], 1);
  EXPECT_EQ(cell["main_metric"]["min"], 100.0);
  const std::string md = slurp(kScratch / "busy-kept" / "report.md");
  EXPECT_NE(md.find("1 of 5 trials host busy, kept (--use_flagged)"), std::string::npos);
  EXPECT_NE(md.find("Disturbed trials are kept in the figures (--use_flagged)"), std::string::npos);
}

// What a run measured, rewritten to exact figures (the machine running the test has its own).
void set_machine(const fs::path& run, double vcpus, double memory_gib, int gpus, const std::string& arch = "x86_64",
                 const std::string& vendor = "GenuineIntel") {
  auto j = read_json(run / "run.json");
  auto& info = j["run"];
  info["system"]["architecture"] = arch;
  info["system"]["cpu_vendor"] = vendor;
  info["system"]["effective_vcpus"] = vcpus;
  info["system"]["memory_total_bytes"] = memory_gib * 1073741824.0;
  info["system"]["cgroup"]["memory_limit_bytes"] = nullptr;
  info["system_info"]["logical_cpu_count"] = vcpus;
  info["system_info"]["accelerator_count"] = gpus;
  std::ofstream(run / "run.json", std::ios::trunc) << j.dump(2);
}

TEST_F(ReportTrustTest, ARunThatIsNotItsLabelledShapeIsNamedOnStderrOneLineEach) {
  // One 2-CPU, 16 GiB machine without a GPU, labelled as an 8-vCPU 32 GiB shape, as a 4-vCPU GPU
  // shape, as what its kernel saw of a 16 GiB shape (15.6 GiB: no warning), and with a typo.
  set_machine(run_as("n2-standard-8", 1000, 0, "labels"), 2, 16, 0);
  set_machine(run_as("g5.xlarge", 1000, 0, "labels"), 2, 15.6, 0, "x86_64", "AuthenticAMD");
  set_machine(run_as("g2-standard-4", 1000, 0, "labels"), 4, 15.6, 1);
  set_machine(run_as("VM.Standard.E4.Flex-2", 1000, 0, "labels"), 2, 16, 0, "x86_64", "AuthenticAMD");
  // An x86 machine labelled as a Graviton shape, and an AMD one as an Intel shape (issue 37).
  set_machine(run_as("c7g.large", 1000, 0, "labels"), 2, 4, 0, "x86_64", "AuthenticAMD");
  set_machine(run_as("c7i.large", 1000, 0, "labels"), 2, 4, 0, "x86_64", "AuthenticAMD");
  const auto f = report({(kScratch / "labels").string()}, "labels-report");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto mismatches = lines_with(f.err, "catalog says");
  EXPECT_EQ(mismatches,
            (std::vector<std::string>{
                "perfzero report: warning: c7g.large: catalog says aarch64, the run ran on x86_64; the price is the "
                "catalog's",
                "perfzero report: warning: c7i.large: catalog says Intel CPUs, the run had AuthenticAMD; the price is "
                "the catalog's",
                "perfzero report: warning: g5.xlarge: catalog says 4 vCPUs, the run had 2; per-vCPU and per-OCPU "
                "figures divide by the catalog's, the price is the catalog's",
                "perfzero report: warning: g5.xlarge: catalog says 1 GPU (NVIDIA A10G), the run had 0; the price is "
                "the catalog's",
                "perfzero report: warning: n2-standard-8: catalog says 8 vCPUs, the run had 2; per-vCPU and per-OCPU "
                "figures divide by the catalog's, the price is the catalog's",
                "perfzero report: warning: n2-standard-8: catalog says 32 GiB of memory, the run had 16 GiB; the "
                "price is the catalog's"}))
      << f.err;
  // The README's --system_name=VM.Standard.E4.Flex-2: 2 OCPUs of the flexible shape (issue 37; was
  // "'VM.Standard.E4.Flex-2' is not in the catalog"), the run's 2 vCPUs (1 OCPU) named against it.
  EXPECT_EQ(lines_with(f.err, "is not in the catalog").size(), 0U) << f.err;
  EXPECT_EQ(lines_with(f.err,
                       "VM.Standard.E4.Flex-2: the name says 2 OCPUs (4 vCPUs), the run had 2 vCPUs; priced "
                       "and divided as named")
                .size(),
            1U)
      << f.err;
  const std::string md = slurp(kScratch / "labels-report" / "report.md");
  EXPECT_NE(md.find("- n2-standard-8: catalog says 8 vCPUs, the run had 2;"), std::string::npos) << md;
  const auto json = read_json(kScratch / "labels-report" / "report.json");
  for (const auto& c : json["configurations"]) {
    if (c["key"] == "VM.Standard.E4.Flex-2") {
      EXPECT_NEAR(c["price"]["usd_per_hour"].get<double>(), 2 * 0.025 + 16 * 0.0015, 1e-12) << c;
      EXPECT_EQ(c["ocpus"], 2);
    }
    if (c["key"] == "g2-standard-4") {
      EXPECT_TRUE(c["shape_mismatches"].empty()) << c["shape_mismatches"];
    }
    if (c["key"] == "n2-standard-8") {
      EXPECT_EQ(c["measured"]["vcpus"], nlohmann::json::array({2.0}));
      EXPECT_EQ(c["vcpus"], 8);  // per-vCPU figures divide by the catalog's, as the warning says
    }
  }
}

// Issue 37, item 5: the rates of five labels on one machine, one run each, as the issue saw them:
// the bootstrap over one run's trials named "m7i.large: 1.18x [1.05x, 1.31x]".
TEST_F(ReportTrustTest, OneRunEachNamesNoWinnerBeyondTheRunNoiseInEveryOutput) {
  const std::vector<std::pair<std::string, double>> rates{
      {"c7i.large", 1000}, {"m7i.large", 1180}, {"n2-standard-2", 1000}, {"Standard_F2s_v2", 1000}, {"c6i.large", 950}};
  for (const auto& [shape, rate] : rates) run_as(shape, rate, 0.1, "one-run");
  const auto f = report({(kScratch / "one-run").string()}, "one-run-report");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto json = read_json(kScratch / "one-run-report" / "report.json");
  const auto& method = json["methods"][0];
  EXPECT_TRUE(method["fastest"].is_null());
  EXPECT_EQ(method["run_noise"]["source"], "default");
  EXPECT_EQ(method["run_noise"]["fraction"], 0.25);
  EXPECT_EQ(method["fastest_ranking"]["ratio"]["run_noise"], 0.25);
  const std::string summary = method["fastest_ranking"]["summary"];
  EXPECT_EQ(summary.rfind("tie: 1.18x [", 0), 0U) << summary;
  EXPECT_NE(summary.find("; widened by 25% between-run noise (default: no configuration ran more than once)"),
            std::string::npos)
      << summary;
  const std::string md = slurp(kScratch / "one-run-report" / "report.md");
  const auto fastest = lines_with(md, "**Fastest**");
  ASSERT_EQ(fastest.size(), 1U) << md;
  for (const auto& [shape, rate] : rates) EXPECT_EQ(fastest[0].find(shape), std::string::npos) << fastest[0];
  EXPECT_EQ(fastest[0].rfind("**Fastest**: tie: 1.18x [", 0), 0U) << fastest[0];
  const std::string html = slurp(kScratch / "one-run-report" / "report.html");
  EXPECT_NE(html.find("<b>Fastest:</b> tie: 1.18x ["), std::string::npos);
  EXPECT_EQ(html.find("class=\"tag fast\""), std::string::npos);
  EXPECT_EQ(slurp(kScratch / "one-run-report" / "report.csv").find(",yes,"), std::string::npos);
  // Prices of one date are one warning listing the shapes, not one line per shape (n2-standard-2 is
  // not in the catalog).
  EXPECT_EQ(lines_with(f.err, "days old"),
            std::vector<std::string>{"perfzero report: warning: Standard_F2s_v2, c6i.large, c7i.large, m7i.large: the "
                                     "prices used are 676 days old (2025-01-15); refresh the catalog or pass your own "
                                     "with --catalog"})
      << f.err;
  // Speedups against a configuration measured in one run are widened too: 1.18x is a tie.
  const auto base = report({(kScratch / "one-run").string(), "--baseline", "c7i.large"}, "one-run-baseline");
  ASSERT_EQ(base.exit_code, 0) << base.err;
  for (const auto& cell : read_json(kScratch / "one-run-baseline" / "report.json")["methods"][0]["cells"]) {
    if (cell["configuration"] == "c7i.large") continue;
    EXPECT_TRUE(cell["speedup_tie"].get<bool>()) << cell["configuration"];
    EXPECT_LT(cell["speedup_interval"]["low"].get<double>(), 1.0) << cell["configuration"];
  }
  // The bootstrap alone, as before: the crown the issue saw.
  const auto bootstrap = report({(kScratch / "one-run").string(), "--run_noise", "0"}, "one-run-bootstrap");
  ASSERT_EQ(bootstrap.exit_code, 0) << bootstrap.err;
  EXPECT_EQ(read_json(kScratch / "one-run-bootstrap" / "report.json")["methods"][0]["fastest"], "m7i.large");
}

TEST_F(ReportTrustTest, RepeatedRunsOfAConfigurationMeasureTheRunNoise) {
  run_as("c7i.large", 1000, 0.02, "repeated/first");
  run_as("c7i.large", 1030, 0.02, "repeated/second");
  run_as("c7i.xlarge", 1400, 0.02, "repeated/first");
  const auto f = report({(kScratch / "repeated").string()}, "repeated-report");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto method = read_json(kScratch / "repeated-report" / "report.json")["methods"][0];
  EXPECT_EQ(method["run_noise"]["source"], "measured");
  EXPECT_EQ(method["run_noise"]["measured_from"], 1);
  EXPECT_NEAR(method["run_noise"]["fraction"].get<double>(), 0.03, 0.001);
  EXPECT_EQ(method["fastest"], "c7i.xlarge");  // 1.37x clears 3%
  EXPECT_NE(method["fastest_ranking"]["summary"].get<std::string>().find("widened by 3% between-run noise (measured"),
            std::string::npos)
      << method["fastest_ranking"]["summary"];
}

TEST_F(ReportTrustTest, TheOnlyConfigurationWithASpeedIsNoWinnerAndLeftOutTrialsAreNotFailures) {
  run_as("c7i.large", 1000, 0, "alone");
  const fs::path busy = run_as("c7i.xlarge", 2000, 0, "alone");
  std::string journal = slurp(busy / "journal.ndjson");
  for (auto at = journal.find("\"flags\":[]"); at != std::string::npos; at = journal.find("\"flags\":[]", at)) {
    journal.replace(at, 10, "\"flags\":[\"host_busy\"]");
  }
  std::ofstream(busy / "journal.ndjson", std::ios::trunc) << journal;
  const auto f = report({(kScratch / "alone").string()}, "alone-report");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto method = read_json(kScratch / "alone-report" / "report.json")["methods"][0];
  EXPECT_TRUE(method["fastest"].is_null());  // was "c7i.large (the only configuration with a speed)"
  EXPECT_EQ(method["fastest_ranking"]["summary"].get<std::string>().rfind("tie: one configuration has a speed", 0), 0U)
      << method["fastest_ranking"]["summary"];
  const std::string html = slurp(kScratch / "alone-report" / "report.html");
  EXPECT_NE(html.find(">left out (host busy) 5/5<"), std::string::npos);
  EXPECT_EQ(html.find("succeeded 0/5"), std::string::npos);  // was painted red as a failure
  // No --baseline: no speedup column (it would be empty).
  EXPECT_EQ(html.find("<th>speedup"), std::string::npos);
  EXPECT_EQ(slurp(kScratch / "alone-report" / "report.md").find("| speedup"), std::string::npos);
}

TEST_F(ReportTrustTest, RunsOfOneLabelOnTwoCpuCountsAreReportedApartAndTheFlexMinimumIsBilled) {
  set_machine(run_as("VM.Standard.E4.Flex", 1000, 0, "cpus/one"), 1, 16, 0, "x86_64", "AuthenticAMD");
  set_machine(run_as("VM.Standard.E4.Flex", 2000, 0, "cpus/two"), 2, 16, 0, "x86_64", "AuthenticAMD");
  const auto f = report({(kScratch / "cpus").string()}, "cpus-report");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_EQ(lines_with(f.err,
                       "VM.Standard.E4.Flex: runs on 1 and 2 vCPUs are different machines, reported apart as "
                       "VM.Standard.E4.Flex [1 vCPU], VM.Standard.E4.Flex [2 vCPUs]")
                .size(),
            1U)
      << f.err;
  const auto json = read_json(kScratch / "cpus-report" / "report.json");
  ASSERT_EQ(json["configurations"].size(), 2U);
  const auto& one = json["configurations"][0];
  EXPECT_EQ(one["key"], "VM.Standard.E4.Flex [1 vCPU]");
  // Half an OCPU, billed as OCI's minimum of one (was priced at 0.5 OCPU).
  EXPECT_NEAR(one["price"]["usd_per_hour"].get<double>(), 0.025 + 16 * 0.0015, 1e-12);
  EXPECT_NE(one["price"]["how"].get<std::string>().find("OCI bills at least 1 OCPU; the run had 0.5"),
            std::string::npos);
  EXPECT_EQ(json["methods"][0]["cells"][0]["main_metric"]["median"], 1000.0);  // not a median of both
  EXPECT_EQ(json["methods"][0]["cells"][1]["main_metric"]["median"], 2000.0);
}

}  // namespace
}  // namespace perfzero::testing::report_trust_test
