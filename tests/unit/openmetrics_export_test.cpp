// The exposition against the OpenMetrics specification (our own parser of it), Prometheus's own
// checker (promtool check metrics, Debian's prometheus package) and the reference OpenMetrics
// parser (Debian's python3-prometheus-client).
#include "export_formats/openmetrics_export.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/files.hpp"
#include "export_formats/export_text.hpp"
#include "export_test_runs.hpp"
#include "external_tool.hpp"
#include "openmetrics_checks.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::export_formats::openmetrics_export_test {
namespace {

testing::OpenMetricsCheck checked(const results::Run& run) {
  const auto c = testing::check_openmetrics(openmetrics_text(run));
  EXPECT_TRUE(c.problems.empty()) << ::testing::PrintToString(c.problems) << openmetrics_text(run);
  return c;
}

std::string value_of(const testing::OpenMetricsCheck& c, const std::string& name,
                     const std::map<std::string, std::string>& labels) {
  for (const auto& s : c.samples) {
    bool match = s.name == name;
    for (const auto& [k, v] : labels) match = match && s.labels.count(k) && s.labels.at(k) == v;
    if (match) return s.value;
  }
  return "(none)";
}

TEST(OpenMetricsEscaping, LabelValuesAndNumbers) {
  EXPECT_EQ(openmetrics_label_value("a\"b\\c\nd\te\xff"), "a\\\"b\\\\c\\nd e\xEF\xBF\xBD");
  EXPECT_EQ(openmetrics_number(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(openmetrics_number(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(openmetrics_number(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(openmetrics_number(1.5), "1.5");
  EXPECT_EQ(openmetrics_number(1e300), "1e+300");
}

TEST(OpenMetricsExport, GaugesWithTypeUnitHelpAndEofForTheRunsStatistics) {
  const auto c = checked(testing::plain_export_run());
  EXPECT_EQ(c.types.at("perfzero_run_timestamp_seconds"), "gauge");
  EXPECT_EQ(c.units.at("perfzero_run_timestamp_seconds"), "seconds");
  EXPECT_EQ(c.units.at("perfzero_wall_time_seconds"), "seconds");
  for (const auto& [family, type] : c.types) EXPECT_TRUE(c.helped.count(family)) << family << " has no HELP";
  EXPECT_EQ(value_of(c, "perfzero_run_timestamp_seconds",
                     {{"execution_id", "20261122T151200Z-abc123"},
                      {"execution_label", "nightly"},
                      {"instance_type", "VM.Standard.E4.Flex"},
                      {"status", "completed"}}),
            "1795360320.25");
  const std::string triad = "stream.Stream.triad[n=1000000]";
  EXPECT_EQ(value_of(c, "perfzero_trials", {{"case", triad}, {"outcome", "succeeded"}}), "3");
  EXPECT_EQ(value_of(c, "perfzero_trials", {{"case", "sanity.Sanity.benchmark_fail"}, {"outcome", "failed"}}), "1");
  EXPECT_EQ(value_of(c, "perfzero_wall_time_seconds", {{"case", triad}, {"stat", "median"}}), "3");
  EXPECT_EQ(value_of(c, "perfzero_wall_time_seconds", {{"case", triad}, {"stat", "max"}}), "4");
  EXPECT_EQ(
      value_of(c, "perfzero_metric", {{"case", triad}, {"metric", "bandwidth"}, {"unit", "GB/s"}, {"stat", "median"}}),
      "20");
  EXPECT_EQ(value_of(c, "perfzero_wall_time_seconds", {{"case", "sanity.Sanity.benchmark_fail"}}), "(none)")
      << "a failed trial's wall time is not a speed";
  EXPECT_EQ(value_of(c, "perfzero_trials", {{"case", "not.reached"}}), "(none)");
}

TEST(OpenMetricsExport, HostileLabelsAndNonFiniteValuesStayValid) {
  const auto c = checked(testing::hostile_export_run());
  // Label values keep line breaks (escaped); other control characters become spaces.
  const std::string name = "we ird,name=\"x\" \\ \n tab here \xEF\xBF\xBD\xEF\xBF\xBD end";
  EXPECT_EQ(value_of(c, "perfzero_metric", {{"case", name}, {"metric", name}, {"stat", "median"}}), "1.5");
  // A statistic that is not finite is absent here as in every summary (docs/reports.md): one rule for
  // all outputs, and the file stays valid.
  EXPECT_EQ(value_of(c, "perfzero_metric", {{"case", name}, {"metric", "nan metric"}, {"stat", "median"}}), "(none)");
  EXPECT_EQ(value_of(c, "perfzero_metric", {{"case", name}, {"metric", "inf metric"}, {"stat", "max"}}), "(none)");
  EXPECT_EQ(value_of(c, "perfzero_metric", {{"case", name}, {"metric", "neg inf"}, {"stat", "min"}}), "(none)");
  EXPECT_EQ(value_of(c, "perfzero_run_timestamp_seconds", {{"cpu_model", "CPU \xEF\xBF\xBD( bad UTF-8"}}),
            "1795360320.25");
}

// The file a real run would write, checked by the real tools.
class OpenMetricsTools : public ::testing::TestWithParam<bool> {};

TEST_P(OpenMetricsTools, PromtoolAcceptsItAsPrometheusText) {
  const auto promtool = testing::find_program("promtool");
  if (!promtool) PERFZERO_SKIP_UNLESS_CI("promtool is not installed (Debian package prometheus)");
  testing::TempDir dir;
  write_openmetrics(GetParam() ? testing::hostile_export_run() : testing::plain_export_run(), dir.path());
  const auto r = testing::run_command(testing::shell_quote(promtool->string()) + " check metrics < " +
                                      testing::shell_quote((dir.path() / kOpenMetricsFile).string()));
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST_P(OpenMetricsTools, TheReferenceOpenMetricsParserReadsEverySample) {
  const auto probe = testing::run_command("/usr/bin/python3 -c 'import prometheus_client.openmetrics.parser'");
  if (probe.exit_code != 0) PERFZERO_SKIP_UNLESS_CI("no python3-prometheus-client: " + probe.output);
  testing::TempDir dir;
  const auto run = GetParam() ? testing::hostile_export_run() : testing::plain_export_run();
  write_openmetrics(run, dir.path());
  const auto r = testing::run_command(
      "/usr/bin/python3 -c 'import sys; from prometheus_client.openmetrics.parser import "
      "text_string_to_metric_families as p; print(sum(len(f.samples) for f in p(open(sys.argv[1]).read())))' " +
      testing::shell_quote((dir.path() / kOpenMetricsFile).string()));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, std::to_string(testing::check_openmetrics(openmetrics_text(run)).samples.size()) + "\n");
}

INSTANTIATE_TEST_SUITE_P(PlainAndHostile, OpenMetricsTools, ::testing::Bool(),
                         [](const auto& p) { return p.param ? "hostile" : "plain"; });

TEST(OpenMetricsExport, WritesTheFileWholeAndLeavesNoTemporaryBehind) {
  testing::TempDir dir;
  write_openmetrics(testing::plain_export_run(), dir.path());
  EXPECT_EQ(files::read_text(dir.path() / kOpenMetricsFile), openmetrics_text(testing::plain_export_run()));
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1);
}

}  // namespace
}  // namespace perfzero::export_formats::openmetrics_export_test
