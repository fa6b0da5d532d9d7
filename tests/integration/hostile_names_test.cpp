// Names and figures a method controls, written where people and programs read them: no formula
// reaches a spreadsheet, no HTML a rendered Markdown page, no escape sequence a terminal; statistics
// past the double's range read the same in every summary; what a method leaves running is counted;
// a short trial still has its process_info.log line. Each is a real run of the perfzero binary.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::hostile_names_test {
namespace {

const std::string kEsc = "\x1b";

// One trial each of three commands whose names are a formula, HTML and an escape sequence; each
// reports a metric named like that too.
std::filesystem::path hostile_suite(TempDir& dir) {
  return dir.write("hostile_names.yaml", R"(
defaults: {trials: 1}
methods:
  - name: '=HYPERLINK("evil.example","x")'
    command: [/bin/sh, -c, 'echo "{\"metrics\": [{\"name\": \"@SUM(A1)\", \"value\": 1}]}" > "$PERFZERO_RESULT_FILE"']
  - name: '<img src=x onerror=alert(1)>'
    command: [/bin/sh, -c, 'echo "{\"metrics\": [{\"name\": \"<script>alert(1)</script>\", \"value\": 2}]}" > "$PERFZERO_RESULT_FILE"']
  - name: "red\e[31mname\e[0m"
    command: [/bin/true]
    output: none
)");
}

TEST(HostileNames, FormulasHtmlAndEscapesAreNeutralisedInEveryTextOutputAndKeptInJson) {
  TempDir dir;
  const auto run = dir.path() / "run";
  const auto f =
      run_perfzero({"--config=" + hostile_suite(dir).string(), "--output_dir=" + run.string()}, dir.path() / "scratch");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_EQ(f.out.find(kEsc), std::string::npos) << f.out;
  EXPECT_EQ(f.err.find(kEsc), std::string::npos) << f.err;
  EXPECT_NE(f.out.find("red?[31mname?[0m"), std::string::npos) << f.out;

  const std::string csv = slurp(run / "summary.csv");
  EXPECT_NE(csv.find("\"'=HYPERLINK(\"\"evil.example\"\",\"\"x\"\")\""), std::string::npos) << csv;
  EXPECT_NE(csv.find(",'@SUM(A1),"), std::string::npos) << csv;
  EXPECT_EQ(csv.find(",=HYPERLINK"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("\n=HYPERLINK"), std::string::npos) << csv;
  EXPECT_EQ(csv.find(kEsc), std::string::npos) << csv;

  const std::string md = slurp(run / "summary.md");
  EXPECT_EQ(md.find("<script>"), std::string::npos) << md;
  EXPECT_EQ(md.find("<img"), std::string::npos) << md;
  EXPECT_NE(md.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos) << md;
  EXPECT_NE(md.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos) << md;
  EXPECT_EQ(md.find(kEsc), std::string::npos) << md;

  // JSON keeps each name byte for byte: it is data, and JSON escapes what it must.
  const auto summary = read_json(run / "summary.json");
  std::string names;
  for (const auto& m : summary["methods"]) names += m["name"].get<std::string>() + "\n";
  EXPECT_NE(names.find("red\x1b[31mname\x1b[0m"), std::string::npos) << names;
  EXPECT_NE(names.find("<img src=x onerror=alert(1)>"), std::string::npos) << names;

  // perfzero report writes the same names into its CSV and Markdown.
  const auto out = dir.path() / "report";
  const auto r = run_perfzero({"report", run.string(), "--out=" + out.string()}, dir.path() / "scratch_report");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string report_csv = slurp(out / "report.csv");
  EXPECT_NE(report_csv.find("\"'=HYPERLINK("), std::string::npos) << report_csv;
  EXPECT_EQ(report_csv.find(",=HYPERLINK"), std::string::npos) << report_csv;
  EXPECT_EQ(report_csv.find(kEsc), std::string::npos);
  const std::string report_md = slurp(out / "report.md");
  EXPECT_EQ(report_md.find("<script>"), std::string::npos) << report_md;
  EXPECT_EQ(report_md.find("<img"), std::string::npos) << report_md;
  EXPECT_EQ(report_md.find(kEsc), std::string::npos);
  EXPECT_EQ(r.out.find(kEsc), std::string::npos);
  EXPECT_EQ(r.err.find(kEsc), std::string::npos);
}

TEST(HostileNames, AnExecutionIdWithAControlCharacterIsAUsageError) {
  TempDir dir;
  for (const std::string id : {"two\nlines", "bell\a", "esc\x1b[2J"}) {
    // The default output directory is results/runs/<execution id> under the working directory.
    const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--execution_id=" + id},
                                dir.path() / "scratch");
    EXPECT_EQ(f.exit_code, 2) << f.err;
    EXPECT_NE(f.err.find("--execution_id: expected a name without control characters"), std::string::npos) << f.err;
    EXPECT_EQ(f.err.find(kEsc), std::string::npos) << f.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "scratch" / "results")) << "a directory was made for a refused id";
}

// Values at the double's limit: each statistic is a finite number or absent, the same in every
// summary, and no percentile lies outside the values.
TEST(HostileNames, StatisticsPastTheDoublesRangeAreAbsentAlikeInEveryOutput) {
  TempDir dir;
  const auto suite = dir.write("overflow.yaml", R"(
methods:
  - name: huge
    trials: 4
    command: [/bin/sh, -c, 'n=${PERFZERO_TRIAL_DIR##*_}; if [ $((n % 2)) = 1 ]; then v=1.7e308; else v=-1.7e308; fi; echo "{\"metrics\": [{\"name\": \"big\", \"value\": $v}]}" > "$PERFZERO_RESULT_FILE"']
)");
  const auto run = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + run.string()}, dir.path() / "scratch");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto summary = read_json(run / "summary.json");
  ASSERT_TRUE(summary["methods"][0]["metrics"].contains("big")) << summary.dump(1);
  const nlohmann::json* stats = &summary["methods"][0]["metrics"]["big"];
  EXPECT_TRUE((*stats)["stddev"].is_null()) << stats->dump();
  EXPECT_TRUE((*stats)["cv"].is_null()) << stats->dump();
  EXPECT_DOUBLE_EQ((*stats)["mean"].get<double>(), 0.0) << stats->dump();
  EXPECT_LE((*stats)["p5"].get<double>(), (*stats)["max"].get<double>()) << stats->dump();
  EXPECT_GE((*stats)["p5"].get<double>(), (*stats)["min"].get<double>()) << stats->dump();
  const std::string csv = slurp(run / "summary.csv");
  EXPECT_EQ(csv.find("inf"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("nan"), std::string::npos) << csv;
  const std::string md = slurp(run / "summary.md");
  EXPECT_EQ(md.find("inf"), std::string::npos) << md;
}

// A method that leaves daemons behind (setsid, so outside its process group): perfzero-launch kills
// them when the method's main process ends, and the report counts them.
TEST(HostileNames, DaemonsAMethodLeftRunningAreKilledAndCounted) {
  TempDir dir;
  const auto suite = dir.write("daemons.yaml", R"(
methods:
  - name: daemons
    trials: 1
    command: [/bin/sh, -c, 'for i in $(seq 1 25); do setsid sleep 300 < /dev/null > /dev/null 2>&1 & done; sleep 0.3']
    output: none
)");
  const auto run = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + run.string()}, dir.path() / "scratch");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto report = read_json(run / "daemons" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(report["perfzero_cpp"]["process"]["leftover_processes_killed"], 25) << report["perfzero_cpp"]["process"];
  EXPECT_TRUE(processes_started_under(run).empty());
}

// /bin/true ends before the monitor's first sample: process_info.log still has the trial's one line,
// from the kernel's accounting, so PerfZero's plot script has a point to draw.
TEST(HostileNames, AShortTrialStillHasAProcessInfoLine) {
  TempDir dir;
  const auto suite = dir.write("short.yaml", R"(
methods:
  - {name: short, command: [/bin/true], output: none, trials: 3}
)");
  const auto run = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + run.string()}, dir.path() / "scratch");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  for (int t = 1; t <= 3; ++t) {
    const auto trial = run / "short" / ("trial_" + std::to_string(t));
    std::ifstream in(trial / "process_info.log");
    std::string line;
    ASSERT_TRUE(std::getline(in, line)) << "empty process_info.log in " << trial;
    const auto sample = nlohmann::json::parse(line);
    EXPECT_GE(sample["time"].get<double>(), 0.0) << line;
    EXPECT_TRUE(sample.contains("rss")) << line;
    EXPECT_TRUE(sample.contains("vms")) << line;
    EXPECT_TRUE(sample.contains("cpu_percent")) << line;
    // Either the monitor caught the tree (perhaps only its zombie, which holds no memory) or the
    // line is the kernel's: the peak RSS of a real process, and null for what nobody saw.
    const auto report = read_json(trial / "perfzero_summary.json");
    const auto& tree = report["perfzero_cpp"]["samplers"]["process_tree"];
    if (tree.value("samples", 0) == 0) {
      EXPECT_TRUE(tree.value("kernel_sample", false)) << tree;
      EXPECT_GT(sample["rss"].get<double>(), 0.0) << line;
      EXPECT_GT(sample["time"].get<double>(), 0.0) << line;
      EXPECT_TRUE(sample["vms"].is_null()) << line;
    }
  }
}

}  // namespace
}  // namespace perfzero::testing::hostile_names_test
