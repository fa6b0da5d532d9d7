// The dashboard exports from a real run: `perfzero run --report=elasticsearch,influx,openmetrics`
// on sanity methods and a command whose metric names hold spaces, quotes, commas, '=', a backslash
// and a line break; each file checked against its format and against summary.json, and the
// InfluxDB points written into a real influxd and read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "../unit/elasticsearch_bulk_checks.hpp"
#include "../unit/influxd_server.hpp"
#include "../unit/openmetrics_checks.hpp"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::exports_test {
namespace {

const std::string kHostileMetric = "lat ency,\"p50\"=x\\y\nz";

// What docs/exports.md says a tag holds: control characters as spaces, backslashes as '/'.
std::string as_influx_tag(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
    if (c == '\\') c = '/';
  }
  return text;
}

class Exports : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    dir_->write("hostile.sh", R"(cat > "$PERFZERO_RESULT_FILE" <<'END'
{"metrics": [{"name": "lat ency,\"p50\"=x\\y\nz", "value": 2.5, "unit": "ms, \"wall\""}, {"name": "plain", "value": 3}]}
END
)");
    const auto suite = dir_->write("exports.yaml", R"(
defaults: {trials: 2, warmup_trials: 1, timeout: 60s}
methods:
  - sanity.Sanity.benchmark_noop
  - method: sanity.Sanity.benchmark_sleep
    params: {ms: 5}
  - name: ext.we ird, "name"=x
    command: [/bin/sh, hostile.sh]
)");
    finished_ = new Finished(
        run_perfzero({"--config=" + suite.string(), "--output_dir=run", "--execution_label=label, with=specials",
                      "--report=elasticsearch,influx,openmetrics,json"},
                     dir_->path()));
    summary_ = new nlohmann::json(nlohmann::json::parse(slurp(run() / "summary.json"), nullptr, false));
  }
  static void TearDownTestSuite() {
    delete summary_;
    delete finished_;
    delete dir_;
  }
  static std::filesystem::path run() { return dir_->path() / "run"; }
  void SetUp() override {
    ASSERT_EQ(finished_->exit_code, 0) << finished_->err << finished_->out;
    ASSERT_EQ((*summary_)["methods"].size(), 3U) << summary_->dump();
  }

  // Each (method, trial, metric) that summary.json lists, wall_time included, with its value.
  struct Expected {
    std::string method, metric;
    int trial;
    double value;
  };
  static std::vector<Expected> expected() {
    std::vector<Expected> out;
    for (const auto& m : (*summary_)["methods"]) {
      for (const auto& t : m["trials"]) {
        out.push_back({m["name"], "wall_time", t["trial"], t["wall_time"]});
        for (const auto& [name, value] : t["metrics"].items()) out.push_back({m["name"], name, t["trial"], value});
      }
    }
    return out;
  }

  static TempDir* dir_;
  static Finished* finished_;
  static nlohmann::json* summary_;
};

TempDir* Exports::dir_ = nullptr;
Finished* Exports::finished_ = nullptr;
nlohmann::json* Exports::summary_ = nullptr;

TEST_F(Exports, ElasticsearchBulkFollowsTheBulkApiAndHoldsEveryTrialMetric) {
  const auto bulk = check_bulk(slurp(run() / "elasticsearch_bulk.ndjson"));
  EXPECT_TRUE(bulk.problems.empty()) << ::testing::PrintToString(bulk.problems);
  const auto properties = read_json(run() / "elasticsearch_template.json")["template"]["mappings"]["properties"];
  const auto uncovered = check_mapping_covers(properties, bulk.documents);
  EXPECT_TRUE(uncovered.empty()) << ::testing::PrintToString(uncovered);
  int wall_times = 0;
  for (const auto& d : bulk.documents) wall_times += d["metric"] == "wall_time" ? 1 : 0;
  EXPECT_EQ(wall_times, 6) << "3 methods x 2 trials; warm-ups are not exported";
  for (const auto& e : expected()) {
    bool found = false;
    for (const auto& d : bulk.documents) {
      found = found || (d["case"] == e.method && d["metric"] == e.metric && d["trial"] == e.trial &&
                        d["value"] == e.value && d["execution_label"] == "label, with=specials");
    }
    EXPECT_TRUE(found) << e.method << " trial " << e.trial << " " << e.metric;
  }
}

TEST_F(Exports, OpenMetricsTextFollowsTheSpecAndHoldsEachMedian) {
  const std::string text = slurp(run() / "perfzero.prom");
  const auto c = check_openmetrics(text);
  EXPECT_TRUE(c.problems.empty()) << ::testing::PrintToString(c.problems) << text;
  for (const auto& m : (*summary_)["methods"]) {
    const std::string name = m["name"].get<std::string>();
    // Keys copied out of items(): g++ 12 sees a false -Warray-bounds in the structured binding here.
    for (const auto& item : m["metrics"].items()) {
      const std::string metric = item.key();
      const double median = item.value()["median"].get<double>();
      bool found = false;
      for (const auto& s : c.samples) {
        found =
            found || (s.name == "perfzero_metric" && s.labels.at("case") == name && s.labels.at("metric") == metric &&
                      s.labels.at("stat") == "median" && std::strtod(s.value.c_str(), nullptr) == median);
      }
      EXPECT_TRUE(found) << name << " " << metric;
    }
  }
  const auto promtool = find_program("promtool");
  if (!promtool) PERFZERO_SKIP_UNLESS_CI("promtool is not installed (Debian package prometheus)");
  const auto r = run_command(shell_quote(promtool->string()) + " check metrics < " +
                             shell_quote((run() / "perfzero.prom").string()));
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST_F(Exports, InfluxPointsRoundTripThroughARealInfluxd) {
  const std::string text = slurp(run() / "influx.lp");
  TempDir server_dir;
  InfluxdServer influxd(server_dir.path());
  if (!influxd.started()) PERFZERO_SKIP_UNLESS_CI("influxd cannot start here: " + influxd.why_not());
  influxd.query("CREATE DATABASE runs");
  ASSERT_EQ(influxd.write("runs", run() / "influx.lp"), " 204") << text;
  const auto answer = influxd.query("SELECT * FROM perfzero", "runs");
  const auto& series = answer["results"][0]["series"][0];
  ASSERT_TRUE(series.is_object()) << answer.dump();
  EXPECT_EQ(series["values"].size(), static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < series["columns"].size(); ++i) column[series["columns"][i]] = i;
  for (const auto& e : expected()) {
    bool found = false;
    for (const auto& row : series["values"]) {
      found = found ||
              (row[column["case"]] == as_influx_tag(e.method) && row[column["metric"]] == as_influx_tag(e.metric) &&
               row[column["trial"]] == std::to_string(e.trial) && row[column["value"]] == e.value &&
               row[column["execution_label"]] == "label, with=specials");
    }
    EXPECT_TRUE(found) << e.method << " trial " << e.trial << " " << e.metric << "\n" << answer.dump();
  }
  const auto tags = influxd.query("SHOW TAG VALUES FROM perfzero WITH KEY = \"metric\"", "runs");
  EXPECT_NE(tags.dump().find(nlohmann::json(as_influx_tag(kHostileMetric)).dump()), std::string::npos) << tags.dump();
}

TEST(ExportReports, AreNotWrittenUnlessAskedForAndTheirNamesAreChecked) {
  TempDir dir;
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "run" / "summary.json"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "run" / "elasticsearch_bulk.ndjson"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "run" / "influx.lp"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "run" / "perfzero.prom"));
  const auto bad = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=bad", "--report=influxx"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("did you mean 'influx'"), std::string::npos) << bad.err;
}

// --report=+NAME adds to the default outputs; --report=NAMES chooses exactly those; mixing is an error.
TEST(ReportSelection, APlusAddsAnExportToTheDefaultsAndAPlainListReplacesThem) {
  TempDir dir;
  const auto added = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=added", "--report=+influx"}, dir.path());
  ASSERT_EQ(added.exit_code, 0) << added.err;
  for (const char* file : {"summary.json", "summary.csv", "summary.md", "influx.lp"}) {
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "added" / file)) << file;
  }
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "added" / "sanity.Sanity.benchmark_noop" / "trial_1" /
                                      "perfzero_summary.json"));
  const auto replaced = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=only", "--report=influx"}, dir.path());
  ASSERT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "only" / "influx.lp"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "only" / "summary.json"));
  const auto mixed = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=mixed", "--report=json,+influx"}, dir.path());
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.err.find("mixes names that replace the defaults"), std::string::npos) << mixed.err;
}

// An `output: none` command's wall time is exported once per trial, not once as the trial's and
// once as a metric (issue 19: 10 InfluxDB points for 5 trials).
TEST(ReportSelection, AnOutputNoneCommandsWallTimeIsOnePointPerTrial) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"(
defaults: {trials: 5}
methods: [{name: t, command: [/bin/true], output: none}]
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run", "--report=+influx"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const std::string lp = slurp(dir.path() / "run" / "influx.lp");
  int walls = 0;
  for (std::size_t at = lp.find("metric=wall_time"); at != std::string::npos;
       at = lp.find("metric=wall_time", at + 1)) {
    ++walls;
  }
  EXPECT_EQ(walls, 5) << lp;
  const std::string csv = slurp(dir.path() / "run" / "summary.csv");
  EXPECT_EQ(csv.find(",wall_time,"), csv.rfind(",wall_time,")) << csv;
}

}  // namespace
}  // namespace perfzero::testing::exports_test
