// fio and iperf3 run as methods (output: fio, output: iperf3): the harness adds the tool's own flags
// for a JSON report and reads it as the method's result, with the real tools (Debian's fio and
// iperf3).
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::tool_outputs_test {
namespace {

bool have(const char* tool) { return std::system(fmt::format("command -v {} > /dev/null", tool).c_str()) == 0; }

std::map<std::string, double> metrics_of(const nlohmann::json& rep) {
  std::map<std::string, double> m;
  for (const auto& metric : rep["benchmark_result"]["metrics"]) m[metric["name"]] = metric["value"];
  return m;
}

TEST(ToolOutputs, FioRunsAsAMethodAndItsJsonIsTheResult) {
  if (!have("fio")) GTEST_SKIP() << "fio is not installed (scripts/install-deps.sh installs it)";
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: fio_rw
    command: [/bin/sh, -c, 'exec fio --name=mixed --directory="$PERFZERO_TRIAL_DIR" --unlink=1 --rw=randrw --bs=4k
              --size=8M --runtime=1 --time_based "$@"', fio]
    output: fio
  - name: fio_broken
    command: [fio, --name=x, --directory=/nonexistent/dir, --size=1M]
    output: fio
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err << f.out;
  const auto rep = read_json(out / "fio_rw" / "trial_1" / "perfzero_summary.json");
  ASSERT_EQ(rep["perfzero_cpp"]["outcome"], "succeeded") << rep["perfzero_cpp"]["outcome_detail"];
  const auto m = metrics_of(rep);
  EXPECT_GT(m.at("mixed.read_iops"), 0);
  EXPECT_GT(m.at("mixed.write_bandwidth"), 0);
  EXPECT_TRUE(m.count("mixed.read_clat_p99_us"));
  EXPECT_EQ(rep["perfzero_cpp"]["metric_units"]["mixed.read_iops"], "IO/s");
  EXPECT_EQ(rep["perfzero_cpp"]["metric_directions"]["mixed.read_clat_p99_us"], "lower");
  EXPECT_EQ(rep["ml_framework_info"]["name"], "fio");
  EXPECT_TRUE(std::filesystem::exists(out / "fio_rw" / "trial_1" / "fio.json"));
  EXPECT_FALSE(std::filesystem::exists(out / "fio_rw" / "trial_1" / "mixed.0.0")) << "--unlink=1";
  const auto broken = read_json(out / "fio_broken" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(broken["perfzero_cpp"]["outcome"], "failed");
  const std::string detail = broken["perfzero_cpp"]["outcome_detail"];
  EXPECT_NE(detail.find("exited with code 1"), std::string::npos) << detail;
  EXPECT_NE(slurp(out / "fio_broken" / "trial_1" / "perfzero.log").find("/nonexistent/dir is not a directory"),
            std::string::npos)
      << "fio's own words, in the trial's log";
}

TEST(ToolOutputs, Iperf3RunsAsAMethodAndAnUnreachableServerIsItsError) {
  if (!have("iperf3")) GTEST_SKIP() << "iperf3 is not installed (scripts/install-deps.sh installs it)";
  TempDir dir;
  // A server of its own for one test, on loopback, then the client as the method.
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - name: iperf3_loopback
    command: [/bin/sh, -c, 'iperf3 --server --one-off --port 5311 --bind 127.0.0.1 > /dev/null & sleep 0.5;
              exec iperf3 --client 127.0.0.1 --port 5311 --time 1 "$@"', iperf3]
    output: iperf3
  - name: iperf3_nobody
    command: [iperf3, --client, 127.0.0.1, --port, "5312", --time, "1"]
    output: iperf3
)yaml");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err << f.out;
  const auto rep = read_json(out / "iperf3_loopback" / "trial_1" / "perfzero_summary.json");
  ASSERT_EQ(rep["perfzero_cpp"]["outcome"], "succeeded") << rep["perfzero_cpp"]["outcome_detail"];
  const auto m = metrics_of(rep);
  EXPECT_GT(m.at("received_throughput"), 0.1);
  EXPECT_EQ(rep["perfzero_cpp"]["metric_units"]["received_throughput"], "Gbit/s");
  EXPECT_EQ(rep["benchmark_result"]["extras"]["iperf3_test"]["protocol"], "TCP");
  const auto nobody = read_json(out / "iperf3_nobody" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(nobody["perfzero_cpp"]["outcome"], "failed");
  EXPECT_NE(nobody["perfzero_cpp"]["outcome_detail"].get<std::string>().find("iperf3: unable to connect to server"),
            std::string::npos)
      << nobody["perfzero_cpp"]["outcome_detail"];
}

}  // namespace
}  // namespace perfzero::testing::tool_outputs_test
