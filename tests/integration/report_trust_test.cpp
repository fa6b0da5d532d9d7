// perfzero report must not crown a winner from noise (issue 19, items 5 and 6), checked on the
// real binary: runs of one machine under several labels are a tie in every output, a clear change
// is named with its interval, disturbed trials are left out unless kept, and a run that is not the
// shape it is labelled with is named on stderr, one line per figure.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::report_trust_test {
namespace {

namespace fs = std::filesystem;

const fs::path kScratch = fs::temp_directory_path() / ("perfzero-report-trust-" + std::to_string(::getpid()));
const std::string kCatalog = (kSourceDir / "infra/pricing/catalog.yaml").string();

// An external command reporting RATE, spread by the trial number (SPREAD: +-SPREAD/2 of it), so
// the trials of every label follow one pattern: what one machine gives, whatever it is called.
fs::path rate_suite(const std::string& name) {
  const fs::path file = kScratch / (name + ".yaml");
  std::ofstream(file) << R"(methods:
  - name: work.rate
    command: [/bin/sh, -c, 'awk -v r="$RATE" -v s="$SPREAD" -v t="$PERFZERO_TRIAL" "BEGIN{printf \"{\\\"metrics\\\":[{\\\"name\\\":\\\"items_per_second\\\",\\\"value\\\":%.3f,\\\"unit\\\":\\\"items/s\\\"}]}\", r*(1+s*((t*3)%5-2)/4)}" > "$PERFZERO_RESULT_FILE"']
)";
  return file;
}

fs::path run_as(const std::string& shape, double rate, double spread, const std::string& dir) {
  const fs::path out = kScratch / dir / shape;
  ::setenv("RATE", std::to_string(rate).c_str(), 1);
  ::setenv("SPREAD", std::to_string(spread).c_str(), 1);
  const auto f = run_perfzero({"--config", rate_suite("rate").string(), "--benchmark_num_trials=5",
                               "--instance_type=" + shape, "--output_dir", out.string()},
                              kScratch / ("run-" + dir + "-" + shape));
  EXPECT_EQ(f.exit_code, 0) << f.err;
  clear_trial_flags(out);  // the rates are synthetic; a busy test machine's flags are beside the point
  return out;
}

Finished report(const std::vector<std::string>& extra, const std::string& name) {
  std::vector<std::string> args{"report",  "--catalog", kCatalog, "--out", (kScratch / name).string(),
                                "--today", "2026-11-22"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_perfzero(args, kScratch / (name + "-cmd"));
}

std::vector<std::string> lines_with(const std::string& text, const std::string& needle) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(needle) != std::string::npos) out.push_back(line);
  }
  return out;
}

class ReportTrustTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    fs::remove_all(kScratch);
    fs::create_directories(kScratch);
  }
  static void TearDownTestSuite() { fs::remove_all(kScratch); }
};

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
  const auto tie = report({(kScratch / "apart").string()}, "apart-5");
  ASSERT_EQ(tie.exit_code, 0) << tie.err;
  const auto five = read_json(kScratch / "apart-5" / "report.json")["methods"][0];
  EXPECT_TRUE(five["fastest"].is_null());  // the interval [1.03, 1.03] excludes 1, but 3% < 5%
  EXPECT_EQ(five["fastest_ranking"]["ratio"]["low"], 1.03);
  const auto named = report({(kScratch / "apart").string(), "--min_change", "2"}, "apart-2");
  ASSERT_EQ(named.exit_code, 0) << named.err;
  const auto two = read_json(kScratch / "apart-2" / "report.json")["methods"][0];
  EXPECT_EQ(two["fastest"], "c7i.xlarge");
  EXPECT_NE(slurp(kScratch / "apart-2" / "report.md").find("c7i.xlarge: 1.03x [1.03x, 1.03x] the speed of c7i.large"),
            std::string::npos);
  const auto bad = report({(kScratch / "apart").string(), "--min_change", "-1"}, "apart-bad");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--min_change"), std::string::npos) << bad.err;
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
  set_machine(run_as("VM.Standard.E4.Flex-2", 1000, 0, "labels"), 2, 16, 0);
  // An x86 machine labelled as a Graviton shape, and an AMD one as an Intel shape (issue 37).
  set_machine(run_as("c7g.large", 1000, 0, "labels"), 2, 4, 0, "x86_64", "AuthenticAMD");
  set_machine(run_as("c7i.large", 1000, 0, "labels"), 2, 4, 0, "x86_64", "AuthenticAMD");
  const auto f = report({(kScratch / "labels").string()}, "labels-report");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto mismatches = lines_with(f.err, "catalog says");
  EXPECT_EQ(mismatches,
            (std::vector<std::string>{
                "perfzero report: warning: c7g.large: catalog says aarch64 (c7g.large), the run ran on x86_64; the "
                "price is the catalog's",
                "perfzero report: warning: c7i.large: catalog says Intel CPUs (c7i.large), the run had AuthenticAMD; "
                "the price is the catalog's",
                "perfzero report: warning: g5.xlarge: catalog says 4 vCPUs, the run had 2; per-vCPU and per-OCPU "
                "figures divide by the catalog's, the price is the catalog's",
                "perfzero report: warning: g5.xlarge: catalog says 1 GPU (NVIDIA A10G), the run had 0; the price is "
                "the catalog's",
                "perfzero report: warning: n2-standard-8: catalog says 8 vCPUs, the run had 2; per-vCPU and per-OCPU "
                "figures divide by the catalog's, the price is the catalog's",
                "perfzero report: warning: n2-standard-8: catalog says 32 GiB of memory, the run had 16 GiB; the "
                "price is the catalog's"}))
      << f.err;
  EXPECT_EQ(
      lines_with(f.err, "'VM.Standard.E4.Flex-2' is not in the catalog; did you mean VM.Standard.E4.Flex?").size(), 1U)
      << f.err;
  const std::string md = slurp(kScratch / "labels-report" / "report.md");
  EXPECT_NE(md.find("- n2-standard-8: catalog says 8 vCPUs, the run had 2;"), std::string::npos) << md;
  const auto json = read_json(kScratch / "labels-report" / "report.json");
  for (const auto& c : json["configurations"]) {
    if (c["key"] == "g2-standard-4") {
      EXPECT_TRUE(c["shape_mismatches"].empty()) << c["shape_mismatches"];
    }
    if (c["key"] == "n2-standard-8") {
      EXPECT_EQ(c["measured"]["vcpus"], nlohmann::json::array({2.0}));
      EXPECT_EQ(c["vcpus"], 8);  // per-vCPU figures divide by the catalog's, as the warning says
    }
  }
}

}  // namespace
}  // namespace perfzero::testing::report_trust_test
