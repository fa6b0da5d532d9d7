// What reports record: PerfZero's keys, system info from DMI fixtures, flags, redaction, and
// external commands reporting through the same protocol.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

namespace perfzero::testing {
namespace {

TEST(Reports, RecordFlagsSystemAndCloudFromDmi) {
  TempDir dir;
  const auto f = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run", "--execution_label=dev",
       "--platform_name=aws", "--system_name=m6i", "--dmi_root=" + (kSourceDir / "tests/fixtures/dmi/aws").string(),
       "--ml_framework_build_label=nightly"},
      dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto r = read_json(dir.path() / "run" / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(r["system_info"]["platform_name"], "aws");
  EXPECT_EQ(r["system_info"]["system_name"], "m6i");
  EXPECT_EQ(r["perfzero_cpp"]["system"]["cloud"]["vendor"], "aws");
  EXPECT_EQ(r["perfzero_cpp"]["system"]["cloud"]["instance_type"], "m6i.large");
  EXPECT_EQ(r["benchmark_info"]["execution_label"], "dev");
  EXPECT_EQ(r["benchmark_info"]["flags"]["execution_label"], "dev");
  EXPECT_EQ(r["ml_framework_info"]["build_label"], "nightly");
  EXPECT_EQ(r["system_info"]["accelerator_count"], 0);
  EXPECT_EQ(r["schema_version"], "1.11.0");
}

TEST(Reports, InstanceTypeFlagWinsOverDmi) {
  TempDir dir;
  const auto f = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run",
       "--dmi_root=" + (kSourceDir / "tests/fixtures/dmi/oci").string(), "--instance_type=VM.Standard.E4.Flex"},
      dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto r = read_json(dir.path() / "run" / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(r["perfzero_cpp"]["system"]["cloud"]["vendor"], "oci");
  EXPECT_EQ(r["perfzero_cpp"]["system"]["cloud"]["instance_type"], "VM.Standard.E4.Flex");
}

TEST(Reports, SecretsInTheEnvironmentAreRedacted) {
  TempDir dir;
  ::setenv("PERFZERO_TEST_API_TOKEN", "do-not-leak-this", 1);
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run"}, dir.path());
  ::unsetenv("PERFZERO_TEST_API_TOKEN");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto path = dir.path() / "run" / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json";
  EXPECT_EQ(read_json(path)["benchmark_info"]["env_vars"]["PERFZERO_TEST_API_TOKEN"], "<redacted>");
  EXPECT_EQ(slurp(path).find("do-not-leak-this"), std::string::npos);
}

TEST(Reports, BuiltInMethodsCarryEveryRepetition) {
  TempDir dir;
  const auto suite = dir.write("stream.yaml", R"(
methods:
  - method: stream.Stream.benchmark_stream
    params: {n: 4096, threads: 2, repetitions: 3, warmups: 2}
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  std::filesystem::path trial;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "run")) {
    if (entry.path().filename().string().rfind("stream.Stream.benchmark_stream", 0) == 0) {
      trial = entry.path() / "trial_1";
    }
  }
  ASSERT_FALSE(trial.empty()) << "no trial directory for the STREAM method";
  const auto r = read_json(trial / "perfzero_summary.json");
  ASSERT_TRUE(r["benchmark_result"]["succeeded"].get<bool>()) << r["perfzero_cpp"]["outcome_detail"];
  const auto& series = r["perfzero_cpp"]["repetitions"];
  ASSERT_EQ(series.size(), 4U) << series.dump();
  const char* kernels[] = {"copy", "scale", "add", "triad"};
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(series[k]["name"], kernels[k]);
    EXPECT_EQ(series[k]["unit"], "s");
    EXPECT_EQ(series[k]["warmups"], 2);
    EXPECT_EQ(series[k]["stopped_by"], "min_repetitions_and_time");
    ASSERT_EQ(series[k]["values"].size(), 3U);
    for (const auto& v : series[k]["values"]) EXPECT_GT(v.get<double>(), 0.0);
  }
  // The best repetition gives the bandwidth, as STREAM defines it: 16 bytes per element for copy.
  double best = series[0]["values"][0].get<double>();
  for (const auto& v : series[0]["values"]) best = std::min(best, v.get<double>());
  double copy = 0;
  for (const auto& m : r["benchmark_result"]["metrics"]) {
    if (m["name"] == "copy_bandwidth") copy = m["value"].get<double>();
  }
  EXPECT_NEAR(copy, 16.0 * 4096 / best / 1e9, 1e-9 * copy);
}

TEST(ExternalCommands, ReportMetricsThroughTheResultFile) {
  TempDir dir;
  const auto suite = dir.write("ext.yaml", R"(
methods:
  - name: ext.env_and_params
    command:
      - /bin/sh
      - -c
      - |
        echo "running in $(pwd) with n={n}"
        printf '{"metrics": [{"name": "n", "value": %s, "unit": "count"}], "extras": {"greeting": "%s"},
                 "ml_framework_info": {"name": "shell", "version": "1"}}' "$PERFZERO_PARAM_N" "$GREETING" \
          > "$PERFZERO_RESULT_FILE"
    env: {GREETING: hello}
    params: {n: [3, 4]}
  - name: ext.fails
    command: [/bin/sh, -c, "echo failing >&2; exit 7"]
  - name: ext.silent
    command: [/bin/true]
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;
  const auto run = dir.path() / "run";
  const auto r = read_json(run / "ext.env_and_params_n_4_" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(r["perfzero_cpp"]["outcome"], "succeeded");
  EXPECT_EQ(r["benchmark_result"]["metrics"][0]["value"], 4);
  EXPECT_EQ(r["perfzero_cpp"]["metric_units"]["n"], "count");
  EXPECT_EQ(r["benchmark_result"]["extras"]["greeting"], "hello");
  EXPECT_EQ(r["ml_framework_info"]["name"], "shell");
  EXPECT_EQ(r["perfzero_cpp"]["method_type"], "command");
  EXPECT_NE(slurp(run / "ext.env_and_params_n_4_" / "trial_1" / "perfzero.log").find("with n=4"), std::string::npos);
  const auto failed = read_json(run / "ext.fails" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(failed["perfzero_cpp"]["outcome"], "failed");
  EXPECT_EQ(failed["perfzero_cpp"]["exit_code"], 7);
  EXPECT_NE(slurp(run / "ext.fails" / "trial_1" / "perfzero.log").find("failing"), std::string::npos);
  EXPECT_EQ(read_json(run / "ext.silent" / "trial_1" / "perfzero_summary.json")["perfzero_cpp"]["outcome"], "invalid");
}

}  // namespace
}  // namespace perfzero::testing

namespace perfzero::testing {
namespace {

TEST(GoogleBenchmarkMethods, ARealBinarysEntriesBecomeMetrics) {
  TempDir dir;
  const auto suite = dir.write("gb.yaml", R"(
methods:
  - name: micro.philox
    command: ["{bindir}/perfzero-micro", --benchmark_filter=BM_philox, --benchmark_min_time=0.01]
    output: google_benchmark
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto trial = dir.path() / "run" / "micro.philox" / "trial_1";
  const auto r = read_json(trial / "perfzero_summary.json");
  EXPECT_EQ(r["perfzero_cpp"]["outcome"], "succeeded");
  EXPECT_EQ(r["perfzero_cpp"]["metric_units"]["BM_philox4x32_10.items_per_second"], "items/s");
  EXPECT_EQ(r["ml_framework_info"]["name"], "google-benchmark");
  EXPECT_TRUE(std::filesystem::exists(trial / "google_benchmark.json"));
  const auto& command = r["perfzero_cpp"]["command"];
  EXPECT_EQ(command[0].get<std::string>().find("{bindir}"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::testing
