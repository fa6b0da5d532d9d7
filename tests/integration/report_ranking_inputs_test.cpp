// What `perfzero report` ranks by and against, on the real binary (issue 37, item 4): STREAM by its
// triad and --metric by the user's choice, a suite's main_metric carried with the run, and the
// between-run noise floor read from a results history when the inputs repeat no configuration.
#include <gtest/gtest.h>

#include <fstream>

#include "perfzero_runner.hpp"
#include "report_runs.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::report_ranking_inputs_test {
namespace {

namespace fs = std::filesystem;

const fs::path kScratch = fs::temp_directory_path() / ("perfzero-report-ranking-" + std::to_string(::getpid()));

class ReportRankingInputs : public report_runs::ReportRunsTest<kScratch> {};

TEST_F(ReportRankingInputs, StreamIsRankedByTriadAndMetricChoosesAnother) {
  const fs::path suite = kScratch / "stream.yaml";
  std::ofstream(suite) << "methods:\n  - method: stream.Stream.benchmark_stream\n    params: {n: 65536, threads: 1, "
                          "repetitions: 2}\n";
  const fs::path out = kScratch / "stream" / "c7i.large";
  ASSERT_EQ(run_perfzero({"--config", suite.string(), "--benchmark_num_trials=1", "--instance_type=c7i.large",
                          "--output_dir", out.string()},
                         kScratch / "stream-run")
                .exit_code,
            0);
  ASSERT_EQ(report({out.string()}, "stream-report").exit_code, 0);
  EXPECT_EQ(read_json(kScratch / "stream-report" / "report.json")["methods"][0]["main_metric"]["name"],
            "triad_bandwidth");  // was copy_bandwidth
  const auto copy = report({out.string(), "--metric", "nope,copy_bandwidth"}, "stream-copy");
  ASSERT_EQ(copy.exit_code, 0) << copy.err;
  EXPECT_EQ(read_json(kScratch / "stream-copy" / "report.json")["methods"][0]["main_metric"]["name"], "copy_bandwidth");
  EXPECT_EQ(lines_with(copy.err, "--metric nope: no method reports it as a rate").size(), 1U) << copy.err;
}

// A suite names the metric a method is ranked by (issue 37, item 4: a suite key), recorded with the
// run; --metric still wins, and a main_metric the method does not report as a rate is warned about.
TEST_F(ReportRankingInputs, ASuitesMainMetricRanksTheMethodAndTravelsWithTheRun) {
  const auto suite_with = [&](const std::string& name, const std::string& main_metric) {
    const fs::path file = kScratch / (name + ".yaml");
    std::ofstream(file) << R"(methods:
  - name: work.two_rates
    command: [/bin/sh, -c, 'echo "{\"metrics\":[{\"name\":\"items_per_second\",\"value\":10,\"unit\":\"items/s\"},{\"name\":\"bytes_per_second\",\"value\":20,\"unit\":\"B/s\"},{\"name\":\"latency\",\"value\":3,\"unit\":\"ms\"}]}" > "$PERFZERO_RESULT_FILE"']
    main_metric: )" << main_metric
                        << "\n";
    return file;
  };
  const auto run_with = [&](const std::string& name, const std::string& main_metric) {
    const fs::path out = kScratch / name / "c7i.large";
    const auto f = run_perfzero({"--config", suite_with(name, main_metric).string(), "--benchmark_num_trials=2",
                                 "--instance_type=c7i.large", "--output_dir", out.string()},
                                kScratch / (name + "-run"));
    EXPECT_EQ(f.exit_code, 0) << f.err;
    return out;
  };
  const fs::path out = run_with("declared", "bytes_per_second");
  EXPECT_EQ(read_json(out / "summary.json")["methods"][0]["main_metric"], "bytes_per_second");
  EXPECT_EQ(read_json(out / "work.two_rates" / "trial_1" / "perfzero_summary.json")["perfzero_cpp"]["main_metric"],
            "bytes_per_second");
  const auto by_suite = report({out.string()}, "declared-report");
  ASSERT_EQ(by_suite.exit_code, 0) << by_suite.err;
  EXPECT_EQ(read_json(kScratch / "declared-report" / "report.json")["methods"][0]["main_metric"]["name"],
            "bytes_per_second");  // not items_per_second, the first rate
  const auto by_flag = report({out.string(), "--metric", "items_per_second"}, "declared-flag");
  ASSERT_EQ(by_flag.exit_code, 0) << by_flag.err;
  EXPECT_EQ(read_json(kScratch / "declared-flag" / "report.json")["methods"][0]["main_metric"]["name"],
            "items_per_second");
  const fs::path latency = run_with("not-a-rate", "latency");
  const auto warned = report({latency.string()}, "not-a-rate-report");
  ASSERT_EQ(warned.exit_code, 0) << warned.err;
  EXPECT_EQ(read_json(kScratch / "not-a-rate-report" / "report.json")["methods"][0]["main_metric"]["name"],
            "items_per_second");
  EXPECT_EQ(
      lines_with(warned.err, "work.two_rates: main_metric latency (from its suite) is not reported as a rate").size(),
      1U)
      << warned.err;
}

// One run per configuration, but a results history of earlier runs (issue 37, item 4: the floor
// "measured from the history"): the floor is how far consecutive runs of one configuration landed
// apart there, at the 95th percentile, and every output says where it came from.
TEST_F(ReportRankingInputs, TheRunNoiseFloorIsMeasuredFromTheHistoryWhenTheInputsRepeatNothing) {
  const fs::path db = kScratch / "noise-history.db";
  int n = 0;
  for (const double rate : {100.0, 104.0, 100.0, 104.0, 100.0, 104.0}) {  // steps of 4 % each
    const fs::path run = run_as("c7i.large", rate, 0.0, "noise-history-" + std::to_string(n++));
    const auto ingest = run_perfzero({"history", "ingest", run.string(), "--db=" + db.string()}, kScratch);
    ASSERT_EQ(ingest.exit_code, 0) << ingest.err;
  }
  const fs::path a = run_as("c7i.large", 100.0, 0.02, "noise-now");
  const fs::path b = run_as("m7i.large", 110.0, 0.02, "noise-now");
  const auto with = report({a.string(), b.string(), "--history", db.string()}, "noise-with");
  ASSERT_EQ(with.exit_code, 0) << with.err;
  const auto noise = read_json(kScratch / "noise-with" / "report.json")["methods"][0]["run_noise"];
  EXPECT_EQ(noise["source"], "history") << noise.dump();
  EXPECT_EQ(noise["history_pairs"], 5) << noise.dump();
  EXPECT_NEAR(noise["fraction"].get<double>(), 0.04, 1e-9) << noise.dump();
  EXPECT_NE(slurp(kScratch / "noise-with" / "report.md").find("4% between-run noise (from the history: 5 pairs"),
            std::string::npos);
  // 10 % apart with a 4 % floor: named, where the default 25 % floor makes it a tie.
  EXPECT_FALSE(read_json(kScratch / "noise-with" / "report.json")["methods"][0]["fastest"].is_null());
  const auto without = report({a.string(), b.string()}, "noise-without");
  ASSERT_EQ(without.exit_code, 0) << without.err;
  const auto plain = read_json(kScratch / "noise-without" / "report.json")["methods"][0];
  EXPECT_EQ(plain["run_noise"]["source"], "default");
  EXPECT_TRUE(plain["fastest"].is_null()) << plain.dump();
  // Another label's history holds nothing of this method: the default again, and a typo is an error.
  const auto other = report({a.string(), b.string(), "--history", db.string(), "--label", "nightly"}, "noise-label");
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_EQ(read_json(kScratch / "noise-label" / "report.json")["methods"][0]["run_noise"]["source"], "default");
  const auto missing = report({a.string(), "--history", (kScratch / "nope.db").string()}, "noise-missing");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("report --history: no results database at"), std::string::npos) << missing.err;
  EXPECT_FALSE(fs::exists(kScratch / "nope.db"));
  const auto label_alone = report({a.string(), "--label", "x"}, "noise-label-alone");
  EXPECT_EQ(label_alone.exit_code, 2);
  EXPECT_NE(label_alone.err.find("--label needs --history DB"), std::string::npos) << label_alone.err;
}

}  // namespace
}  // namespace perfzero::testing::report_ranking_inputs_test
