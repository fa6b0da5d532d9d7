// What a child leaves behind cannot hang, crash or swamp the harness: a FIFO or a symlink at the
// result path, a huge or deeply nested result, Google Benchmark output with NaN and failed
// entries, and a log of hundreds of MiB. Each is a real run of the perfzero binary.
#include <sys/resource.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::hostile_results_test {
namespace {

nlohmann::json trial_report(const std::filesystem::path& run, const std::string& method) {
  return read_json(run / method / "trial_1" / "perfzero_summary.json");
}

std::string detail_of(const nlohmann::json& report) {
  return report["perfzero_cpp"]["outcome_detail"].get<std::string>();
}

TEST(HostileResults, AFifoASymlinkOrAnOversizedResultIsInvalidAndTheRunGoesOn) {
  TempDir dir;
  const auto suite = dir.write("hostile.yaml", R"(
defaults: {timeout: 60s}
methods:
  - {name: ext.fifo, command: [/bin/sh, -c, "mkfifo \"$PERFZERO_RESULT_FILE\""]}
  - {name: ext.zero, command: [/bin/sh, -c, "ln -s /dev/zero \"$PERFZERO_RESULT_FILE\""]}
  - name: ext.big
    command: [/bin/sh, -c, "head -c 5000 /dev/zero | tr '\\0' ' ' > \"$PERFZERO_RESULT_FILE\""]
  - name: ext.fine
    command: [/bin/sh, -c, "echo '{\"metrics\": [{\"name\": \"x\", \"value\": 1}]}' > \"$PERFZERO_RESULT_FILE\""]
)");
  const auto started = std::chrono::steady_clock::now();
  const auto f =
      run_perfzero({"--config=" + suite.string(), "--output_dir=run", "--max_result_bytes=4096"}, dir.path());
  // Before the fix, opening the FIFO blocked for ever and the --timeout did not apply.
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(50));
  const auto run = dir.path() / "run";
  const auto fifo = trial_report(run, "ext.fifo");
  EXPECT_EQ(fifo["perfzero_cpp"]["outcome"], "invalid");
  EXPECT_NE(detail_of(fifo).find("a FIFO"), std::string::npos) << detail_of(fifo);
  const auto zero = trial_report(run, "ext.zero");
  EXPECT_EQ(zero["perfzero_cpp"]["outcome"], "invalid");
  EXPECT_NE(detail_of(zero).find("symbolic link"), std::string::npos) << detail_of(zero);
  const auto big = trial_report(run, "ext.big");
  EXPECT_EQ(big["perfzero_cpp"]["outcome"], "invalid");
  EXPECT_NE(detail_of(big).find("over the limit of 4096"), std::string::npos) << detail_of(big);
  EXPECT_EQ(trial_report(run, "ext.fine")["perfzero_cpp"]["outcome"], "succeeded") << f.err << f.out;
}

TEST(HostileResults, DeeplyNestedExtrasAreInvalidNotACrash) {
  TempDir dir;
  std::string deep = R"({"metrics": [{"name": "x", "value": 1}], "extras": )";
  for (int i = 0; i < 100000; ++i) deep += R"({"a": )";
  deep += "1";
  for (int i = 0; i < 100000; ++i) deep += "}";
  deep += "}";
  const auto deep_file = dir.write("deep.json", deep);
  const auto suite = dir.write("deep.yaml", R"(
methods:
  - {name: ext.deep, command: [/bin/sh, -c, "cp )" +
                                                deep_file.string() + R"( \"$PERFZERO_RESULT_FILE\""]}
  - name: ext.after
    command: [/bin/sh, -c, "echo '{\"metrics\": [{\"name\": \"x\", \"value\": 1}]}' > \"$PERFZERO_RESULT_FILE\""]
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  const auto run = dir.path() / "run";
  const auto deep_report = trial_report(run, "ext.deep");
  EXPECT_EQ(deep_report["perfzero_cpp"]["outcome"], "invalid") << f.err;
  EXPECT_NE(detail_of(deep_report).find("nested deeper than 64"), std::string::npos) << detail_of(deep_report);
  EXPECT_LT(std::filesystem::file_size(run / "ext.deep" / "trial_1" / "perfzero_summary.json"), 1u << 20);
  EXPECT_EQ(trial_report(run, "ext.after")["perfzero_cpp"]["outcome"], "succeeded");
}

// Issue 20: an 8 MB result whose extras held 4,000,000 numbers 60 lists deep became a 516 MB
// perfzero_summary.json and a 1.21 GB harness. Reports now keep 1 MiB of extras, 8 levels deep, and say
// what they cut; the harness's memory stays in proportion to the result.
TEST(HostileResults, HugeDeepExtrasAreCutInReportsAndSaySo) {
  TempDir dir;
  const auto suite = dir.write("extras.yaml", R"yaml(
methods:
  - name: ext.huge_extras
    command:
      - /bin/sh
      - -c
      - >-
        awk 'BEGIN { printf "{\"metrics\":[{\"name\":\"x\",\"value\":1}],\"extras\":{\"small\":42,\"deep\":";
        for (i = 0; i < 60; i++) printf "["; printf "1"; for (i = 1; i < 4000000; i++) printf ",1";
        for (i = 0; i < 60; i++) printf "]"; printf "}}" }' > "$PERFZERO_RESULT_FILE"
)yaml");
  const pid_t pid = ::fork();
  if (pid == 0) {
    const std::string binary = (kBinDir / "harness" / "perfzero").string();
    const std::string config = "--config=" + suite.string();
    const std::string out = "--output_dir=" + (dir.path() / "run").string();
    const int null_fd = ::open("/dev/null", O_WRONLY);
    ::dup2(null_fd, 1);
    ::execl(binary.c_str(), binary.c_str(), config.c_str(), out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  ASSERT_EQ(::wait4(pid, &status, 0, &usage), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  // ru_maxrss of the harness itself (its children are not waited for here, the launcher reaps them).
  // It was 1.21 GB before extras were bounded; under ASan the same harness reads about 560 MB.
  EXPECT_LT(usage.ru_maxrss, (kSanitizedBuild ? 800L : 400L) * 1024) << "KiB";
  const auto report_path = dir.path() / "run" / "ext.huge_extras" / "trial_1" / "perfzero_summary.json";
  EXPECT_LT(std::filesystem::file_size(report_path), 2U << 20);
  const auto report = read_json(report_path);
  const auto& extras = report["benchmark_result"]["extras"];
  EXPECT_EQ(extras["small"], 42);
  ASSERT_TRUE(extras["deep"].is_string()) << extras.dump().substr(0, 200);
  EXPECT_NE(extras["deep"].get<std::string>().find("cut by perfzero: 7.6 MiB of JSON, 60 levels deep"),
            std::string::npos)
      << extras["deep"];
  EXPECT_NE(report["perfzero_cpp"]["flags"].dump().find("extras_cut"), std::string::npos);
  // The result file keeps every byte the method wrote.
  EXPECT_GT(std::filesystem::file_size(dir.path() / "run" / "ext.huge_extras" / "trial_1" / "result.json"), 7U << 20);
}

TEST(HostileResults, GoogleBenchmarkNanFailedEntriesAndUnits) {
  TempDir dir;
  // As libbenchmark writes them: NaN bare, a SkipWithError entry, a rate counter, a _cv aggregate.
  const auto report = dir.write("gb.json", R"({"context": {"library_build_type": "release"}, "benchmarks": [
    {"name": "BM_a", "run_type": "iteration", "iterations": 10, "real_time": 2.5, "cpu_time": 2.4,
     "time_unit": "us", "ratio": NaN, "ops_per_second": 1.5e6},
    {"name": "BM_b", "run_type": "iteration", "error_occurred": true, "error_message": "no device"},
    {"name": "BM_a_cv", "run_type": "aggregate", "aggregate_name": "cv", "aggregate_unit": "percentage",
     "iterations": 3, "real_time": 0.012, "cpu_time": 0.011, "time_unit": "us", "ops_per_second": 0.02}]})");
  const auto suite = dir.write("gb.yaml", R"(
methods:
  - name: ext.gb
    command: [/bin/sh, -c, "cp )" + report.string() +
                                              R"( \"$PERFZERO_TRIAL_DIR/google_benchmark.json\""]
    output: google_benchmark
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  const auto r = trial_report(dir.path() / "run", "ext.gb");
  EXPECT_EQ(r["perfzero_cpp"]["outcome"], "succeeded") << f.err << f.out << r.dump();
  const auto& units = r["perfzero_cpp"]["metric_units"];
  EXPECT_EQ(units["BM_a.real_time"], "us");
  EXPECT_EQ(units["BM_a.ops_per_second"], "1/s");
  EXPECT_EQ(units["BM_a_cv.real_time"], "fraction");
  EXPECT_FALSE(units.contains("BM_a.ratio"));
  EXPECT_EQ(r["benchmark_result"]["extras"]["non_finite_metrics"]["BM_a.ratio"], "NaN");
  EXPECT_EQ(r["benchmark_result"]["extras"]["google_benchmark_errors"]["BM_b"], "no device");
  const auto& flags = r["perfzero_cpp"]["flags"];
  EXPECT_NE(std::find(flags.begin(), flags.end(), "benchmark_entry_error"), flags.end());
  EXPECT_NE(std::find(flags.begin(), flags.end(), "non_finite_metric"), flags.end());
  // The other entries' metrics reach the run summary.
  EXPECT_NE(slurp(dir.path() / "run" / "summary.csv").find("BM_a.real_time"), std::string::npos);
}

TEST(HostileResults, AHugeLogKeepsItsHeadAndTail) {
  TempDir dir;
  const auto suite = dir.write("log.yaml", R"(
methods:
  - name: ext.chatty
    command: [/bin/sh, -c, "echo FIRST; head -c 3000000 /dev/zero | tr '\\0' x; echo; echo LAST >&2"]
    output: none
    max_log_bytes: 100000
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto trial = dir.path() / "run" / "ext.chatty" / "trial_1";
  const std::string log = slurp(trial / "perfzero.log");
  EXPECT_LT(log.size(), 100500u);
  EXPECT_EQ(log.rfind("FIRST", 0), 0u);
  EXPECT_NE(log.find("LAST"), std::string::npos);
  EXPECT_NE(log.find("bytes of output dropped here"), std::string::npos);
  const auto r = read_json(trial / "perfzero_summary.json");
  EXPECT_GT(r["perfzero_cpp"]["process"]["log_bytes_dropped"].get<std::uint64_t>(), 2'800'000u);
  const auto& flags = r["perfzero_cpp"]["flags"];
  EXPECT_NE(std::find(flags.begin(), flags.end(), "log_truncated"), flags.end());
}

}  // namespace
}  // namespace perfzero::testing::hostile_results_test
