// Every exported line against the line protocol's syntax, then the points written into a real
// influxd (Debian's influxdb, 1.x) started by the test and read back over HTTP.
#include "export_formats/influx_line_protocol.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

#include "export_formats/export_text.hpp"
#include "export_test_runs.hpp"
#include "influxd_server.hpp"
#include "line_protocol_parser.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::export_formats::influx_line_protocol_test {
namespace {

std::vector<testing::LinePoint> parse_all(const std::string& text) {
  std::vector<testing::LinePoint> points;
  EXPECT_TRUE(text.empty() || text.back() == '\n');
  std::size_t start = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; start = nl + 1, nl = text.find('\n', start)) {
    const std::string line = text.substr(start, nl - start);
    std::string problem;
    auto p = testing::parse_line(line, problem);
    EXPECT_TRUE(p.has_value()) << problem << " in: " << line;
    if (p) points.push_back(*p);
  }
  return points;
}

const testing::LinePoint* find_point(const std::vector<testing::LinePoint>& points, const std::string& metric,
                                     const std::string& trial) {
  for (const auto& p : points) {
    if (p.tags.count("metric") && p.tags.at("metric") == metric && p.tags.at("trial") == trial) return &p;
  }
  return nullptr;
}

TEST(InfluxEscaping, TagsEscapeCommasSpacesEqualsAndStringsQuotesAndBackslashes) {
  EXPECT_EQ(influx_tag("a,b c=d"), "a\\,b\\ c\\=d");
  EXPECT_EQ(influx_tag_text("back\\slash\nline\xff"), "back/slash line\xEF\xBF\xBD");
  EXPECT_EQ(influx_string_field("q\"u\\o\nx"), "\"q\\\"u\\\\o x\"");
}

TEST(InfluxLineProtocol, OnePointPerTrialAndMetricWithTagsFieldsAndNanosecondTimes) {
  const auto points = parse_all(influx_line_protocol(testing::plain_export_run()));
  ASSERT_EQ(points.size(), 11U);
  const auto* p = find_point(points, "bandwidth", "2");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->measurement, kInfluxMeasurement);
  const std::map<std::string, std::string> tags{{"case", "stream.Stream.triad[n=1000000]"},
                                                {"method", "stream.Stream.triad"},
                                                {"metric", "bandwidth"},
                                                {"unit", "GB/s"},
                                                {"trial", "2"},
                                                {"outcome", "succeeded"},
                                                {"param_n", "1000000"},
                                                {"param_kind", "triad"},
                                                {"execution_label", "nightly"},
                                                {"platform_name", "oci"},
                                                {"system_name", "VM.Standard.E4.Flex-2"},
                                                {"instance_type", "VM.Standard.E4.Flex"},
                                                {"cpu_model", "AMD EPYC 7J13"},
                                                {"cloud", "oci"}};
  EXPECT_EQ(p->tags, tags);
  EXPECT_EQ(p->fields.at("value").type, 'f');
  EXPECT_EQ(std::strtod(p->fields.at("value").text.c_str(), nullptr), 20.0);
  EXPECT_EQ(p->fields.at("exit_code").type, 'i');
  EXPECT_EQ(p->fields.at("exit_code").text, "0i");
  EXPECT_EQ(p->fields.at("execution_id").type, 's');
  EXPECT_EQ(p->fields.at("execution_id").text, "20261122T151200Z-abc123");
  EXPECT_EQ(p->timestamp, 1795360321250000000) << "the run's start plus the trial's offset, in ns";
}

TEST(InfluxLineProtocol, HostileNamesAndNonFiniteValuesStayValidAndNoPointHidesAnother) {
  const auto points = parse_all(influx_line_protocol(testing::hostile_export_run()));
  const auto* hostile = find_point(points, influx_tag_text(testing::kHostileName), "1");
  ASSERT_NE(hostile, nullptr);
  EXPECT_EQ(hostile->tags.at("case"), influx_tag_text(testing::kHostileName));
  EXPECT_EQ(hostile->tags.at("unit"), "it/s, \"fast\"");
  EXPECT_EQ(hostile->tags.at("system_name"), "sys/tem/") << "a trailing backslash would escape the separator";
  EXPECT_EQ(hostile->tags.at("execution_label"), "label with spaces, commas=equals \"quotes\" ");
  EXPECT_EQ(hostile->fields.at("flags").text, "non_finite_metric,host_busy");
  const std::map<std::string, std::string> non_finite{
      {"nan metric", "NaN"}, {"inf metric", "+Inf"}, {"neg inf", "-Inf"}};
  for (const auto& [metric, text] : non_finite) {
    const auto* p = find_point(points, metric, "1");
    ASSERT_NE(p, nullptr) << metric;
    EXPECT_EQ(p->fields.count("value"), 0U) << "line protocol floats have no " << text;
    EXPECT_EQ(p->fields.at("value_non_finite").text, text);
  }
  EXPECT_EQ(find_point(points, "twice", "1")->tags.count("unit"), 0U) << "an empty tag is left out";
  // InfluxDB keeps one point per (measurement, tag set, time): each must be unique or one is lost.
  std::set<std::string> keys;
  for (const auto& p : points) {
    std::string key = std::to_string(p.timestamp.value_or(-1));
    for (const auto& [k, v] : p.tags) key += "\x1f" + k + "=" + v;
    EXPECT_TRUE(keys.insert(key).second) << "two points share tags and time: " << key;
  }
}

// The value InfluxDB's JSON holds for a parsed field.
nlohmann::json expected_json(const testing::LineField& f) {
  if (f.type == 'f') return std::strtod(f.text.c_str(), nullptr);
  if (f.type == 'i') return std::strtoll(f.text.c_str(), nullptr, 10);
  return f.text;
}

TEST(InfluxLineProtocol, RoundTripsThroughARealInfluxd) {
  testing::TempDir dir;
  testing::InfluxdServer influxd(dir.path());
  if (!influxd.started()) PERFZERO_SKIP_UNLESS_CI("influxd cannot start here: " + influxd.why_not());
  auto run = testing::hostile_export_run();
  const std::string text = influx_line_protocol(run);
  const auto body = dir.write("points.lp", text);
  influxd.query("CREATE DATABASE perfzero");
  ASSERT_EQ(influxd.write("perfzero", body), " 204") << "influxd refused the points";
  const auto answer = influxd.query("SELECT * FROM perfzero", "perfzero");
  const auto& series = answer["results"][0]["series"][0];
  ASSERT_TRUE(series.is_object()) << answer.dump();
  const auto points = parse_all(text);
  ASSERT_EQ(series["values"].size(), points.size()) << "every point was stored, none hid another";
  // Each stored row is one written point: same time, same tags, same fields.
  std::set<std::string> tag_keys;
  std::map<std::string, const testing::LinePoint*> by_key;
  for (const auto& p : points) {
    std::string key = std::to_string(*p.timestamp);
    for (const auto& [k, v] : p.tags) {
      key += "\x1f" + k + "=" + v;
      tag_keys.insert(k);
    }
    by_key[key] = &p;
  }
  const auto& columns = series["columns"];
  for (const auto& row : series["values"]) {
    std::map<std::string, nlohmann::json> tags, fields;
    for (std::size_t i = 1; i < columns.size(); ++i) {
      const auto name = columns[i].get<std::string>();
      if (!row[i].is_null()) (tag_keys.count(name) ? tags : fields)[name] = row[i];
    }
    std::string key = std::to_string(row[0].get<std::int64_t>());
    for (const auto& [k, v] : tags) key += "\x1f" + k + "=" + v.get<std::string>();
    ASSERT_EQ(by_key.count(key), 1U) << "a stored row no written point matches: " << row.dump();
    const auto& written = *by_key[key];
    EXPECT_EQ(fields.size(), written.fields.size()) << row.dump();
    for (const auto& [name, f] : written.fields) EXPECT_EQ(fields[name], expected_json(f)) << name;
  }
}

}  // namespace
}  // namespace perfzero::export_formats::influx_line_protocol_test
