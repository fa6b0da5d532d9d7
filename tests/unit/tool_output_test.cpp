// fio's and iperf3's JSON reports read as method results, on their real output (tests/fixtures/
// tool_output: fio 3.33 and iperf 3.12, Debian 12) and on hostile input, as the Google Benchmark
// reader is tested.
#include "child_results/tool_output.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::child_results::tool_output_test {
namespace {

using perfzero::testing::TempDir;

const std::filesystem::path kFixtures = std::filesystem::path(PERFZERO_FIXTURES_DIR) / "tool_output";

std::map<std::string, Metric> by_name(const ChildResult& r) {
  std::map<std::string, Metric> out;
  for (const auto& m : r.metrics) out.emplace(m.name, m);
  return out;
}

TEST(FioOutput, EveryJobsDirectionsBecomeMetricsWithUnitsAndDirections) {
  const auto parsed = read_fio(kFixtures / "fio_randrw.json");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed)) << std::get<std::string>(parsed);
  const auto& r = std::get<ChildResult>(parsed);
  EXPECT_FALSE(r.error);
  const auto m = by_name(r);
  ASSERT_TRUE(m.count("x.read_iops")) << "job x, randrw";
  EXPECT_NEAR(m.at("x.read_iops").value, 7873.015873, 1e-6);
  EXPECT_EQ(m.at("x.read_iops").unit, "IO/s");
  EXPECT_EQ(m.at("x.read_iops").direction, Direction::higher_is_better);
  EXPECT_NEAR(m.at("x.read_bandwidth").value, 32.247873, 1e-6);
  EXPECT_EQ(m.at("x.read_bandwidth").unit, "MB/s");
  EXPECT_TRUE(m.count("x.write_iops"));
  EXPECT_EQ(m.at("x.read_clat_p99_us").unit, "us");
  EXPECT_EQ(m.at("x.read_clat_p99_us").direction, Direction::lower_is_better);
  EXPECT_LE(m.at("x.read_clat_p50_us").value, m.at("x.read_clat_p99_9_us").value);
  EXPECT_FALSE(m.count("x.trim_iops")) << "a direction that moved nothing is not a figure";
  EXPECT_EQ(r.ml_framework_info["version"], "fio-3.33");
}

TEST(FioOutput, AJobsErrorFailsTheTrialInFiosWordsEvenAfterItsNotice) {
  // Real: fio prints a notice line before the JSON in the output file, and the job's error number.
  const auto parsed = read_fio(kFixtures / "fio_error.json");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed)) << std::get<std::string>(parsed);
  const auto& r = std::get<ChildResult>(parsed);
  ASSERT_TRUE(r.error);
  EXPECT_NE(r.error->find("bad: error 1"), std::string::npos) << *r.error;
}

TEST(Iperf3Output, TheSummaryBecomesMetricsAndItsErrorATrialError) {
  auto parsed = read_iperf3(kFixtures / "iperf3_tcp.json");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed)) << std::get<std::string>(parsed);
  auto m = by_name(std::get<ChildResult>(parsed));
  EXPECT_NEAR(m.at("sent_throughput").value, 14.744281208867373, 1e-9);
  EXPECT_NEAR(m.at("received_throughput").value, 14.713600140319824, 1e-9);
  EXPECT_EQ(m.at("received_throughput").unit, "Gbit/s");
  EXPECT_EQ(m.at("retransmits").direction, Direction::lower_is_better);
  EXPECT_TRUE(m.count("host_cpu_percent"));
  EXPECT_EQ(std::get<ChildResult>(parsed).extras["iperf3_test"]["num_streams"], 1);

  parsed = read_iperf3(kFixtures / "iperf3_udp.json");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed)) << std::get<std::string>(parsed);
  m = by_name(std::get<ChildResult>(parsed));
  EXPECT_TRUE(m.count("jitter_ms"));
  EXPECT_TRUE(m.count("lost_percent"));

  // iperf3 exits 0 with --logfile when the server cannot be reached: its JSON says so.
  parsed = read_iperf3(kFixtures / "iperf3_refused.json");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed)) << std::get<std::string>(parsed);
  const auto& refused = std::get<ChildResult>(parsed);
  ASSERT_TRUE(refused.error);
  EXPECT_EQ(*refused.error, "iperf3: unable to connect to server: Connection refused");
}

TEST(ToolOutput, HostileOutputIsAnErrorNeverACrash) {
  TempDir dir;
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string not_utf8 = "{\"jobs\": [{\"jobname\": \"\xff\xfe\", \"read\": {\"io_bytes\": 1, \"iops\": 5}}]}";
  for (const auto& [name, text] : std::map<std::string, std::string>{
           {"empty", ""},
           {"no_json", "fio: something went wrong\n"},
           {"deep", "{\"jobs\": " + deep + "}"},
           {"truncated", "{\"jobs\": [{\"jobname\": \"x\", \"read\": {"},
           {"jobs_not_list", "{\"jobs\": 5}"},
           {"not_utf8", not_utf8},
           {"nan", "{\"jobs\": [{\"jobname\": \"x\", \"read\": {\"io_bytes\": 1, \"iops\": NaN}}]}"}}) {
    const auto fio = parse_fio(text);
    const auto iperf = parse_iperf3(text);
    if (name == "not_utf8") {
      // nlohmann rejects invalid UTF-8 inside strings: an error, not a metric with broken bytes.
      EXPECT_TRUE(std::holds_alternative<std::string>(fio) || !std::get<ChildResult>(fio).metrics.empty()) << name;
    } else {
      EXPECT_TRUE(std::holds_alternative<std::string>(fio)) << name;
    }
    EXPECT_TRUE(std::holds_alternative<std::string>(iperf)) << name;
  }
  // Larger than the bound: refused before it is parsed.
  const auto big = dir.write("fio.json", "{\"jobs\": [" + std::string(4 << 20, ' ') + "]}");
  const auto refused = read_fio(big, 1 << 20);
  ASSERT_TRUE(std::holds_alternative<std::string>(refused));
  EXPECT_NE(std::get<std::string>(refused).find("unusable"), std::string::npos) << std::get<std::string>(refused);
  EXPECT_NE(std::get<std::string>(read_fio(dir.path() / "missing.json")).find("fio wrote no JSON output"),
            std::string::npos);
}

}  // namespace
}  // namespace perfzero::child_results::tool_output_test
