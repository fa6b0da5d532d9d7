// MLflow exports against a real `mlflow server` (SQLite store, --serve-artifacts): a run made with
// --report=+mlflow read back through MLflow's REST API (experiment, runs, parameters, tags, every
// step of every metric, the trial reports as artifacts); no planted secret reaching the server; and a
// server that is down, then one that refuses, losing nothing: `perfzero export mlflow` later sends
// everything once, and again sends nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <set>

#include "../unit/temp_dir.hpp"
#include "mlflow_server.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit.
namespace perfzero::testing::mlflow_export_test {
namespace {

const std::vector<std::string> kSecrets{"sekritml01", "sekritml02", "sekritml03", "sekritml04"};

// A built-in method with a parameter, and a command whose argv, environment, parameters and extras
// carry secrets (each written in two halves in the script, so its recorded text does not hold it).
const char* kSuite = R"(
defaults: {trials: 2, timeout: 60s}
methods:
  - method: sanity.Sanity.benchmark_sleep
    params: {ms: [5]}
  - name: ext.secrets
    command:
      - /bin/sh
      - -c
      - |
        [ "$1" = "--password=sekritml""01" ] && [ "$TOKEN" = "sekritml""02" ] || exit 9
        printf '{"metrics": [{"name": "n", "value": 1, "unit": "count"}], "extras": {"api_token": "%s"}}' "sekritml""04" > "$PERFZERO_RESULT_FILE"
      - sh
      - --password=sekritml01
      - --db-password={password}
    env: {TOKEN: sekritml02}
    params: {password: [sekritml03]}
)";

// The two methods' cases, as the run names them.
const std::set<std::string> kCases{"sanity.Sanity.benchmark_sleep[ms=5]", "ext.secrets[password=<redacted>]"};

class MlflowExport : public ::testing::Test {
 protected:
  // One server for the file's tests in a process (ctest runs each test alone, so once per test).
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    server_ = new MlflowServer(dir_->path() / "server");
  }
  static void TearDownTestSuite() {
    delete server_;
    delete dir_;
  }
  void SetUp() override {
    if (!server_->started()) PERFZERO_SKIP_UNLESS_CI("mlflow server cannot start here: " + server_->why_not());
  }

  static std::filesystem::path suite() { return dir_->write("mlflow.yaml", kSuite); }

  static std::string experiment_id(const std::string& name) {
    return server_->get("experiments/get-by-name?experiment_name=" + name)["experiment"].value("experiment_id", "");
  }
  // run name -> the run (info, data), every run of the experiment.
  static std::map<std::string, nlohmann::json> runs_of(const std::string& experiment) {
    std::map<std::string, nlohmann::json> out;
    const auto found = server_->post("runs/search", {{"experiment_ids", {experiment}}, {"max_results", 100}});
    for (const auto& r : found.value("runs", nlohmann::json::array())) out[r["info"]["run_name"]] = r;
    return out;
  }
  static std::map<std::string, std::string> pairs(const nlohmann::json& items) {
    std::map<std::string, std::string> out;
    for (const auto& kv : items) out[kv["key"]] = kv["value"];
    return out;
  }
  // step -> value of one metric of one MLflow run, every point logged (a step sent twice shows twice).
  static std::multimap<int, double> history(const std::string& run_id, const std::string& metric) {
    std::multimap<int, double> out;
    const auto h = server_->get("metrics/get-history?max_results=1000&run_id=" + run_id + "&metric_key=" + metric);
    for (const auto& m : h.value("metrics", nlohmann::json::array())) out.emplace(m["step"].get<int>(), m["value"]);
    return out;
  }

  static TempDir* dir_;
  static MlflowServer* server_;
};

TempDir* MlflowExport::dir_ = nullptr;
MlflowServer* MlflowExport::server_ = nullptr;

TEST_F(MlflowExport, RunIsReadBackFromARealServerWithEveryStepAndNoSecret) {
  ::setenv("MLFLOW_TRACKING_URI", server_->url().c_str(), 1);  // the variable, as MLflow's own clients read it
  const auto run = dir_->path() / "run";
  const auto done = run_perfzero({"--config=" + suite().string(), "--output_dir=run", "--execution_label=mlflow-it",
                                  "--commit=0123abcd", "--report=+mlflow"},
                                 dir_->path());
  ::unsetenv("MLFLOW_TRACKING_URI");
  ASSERT_EQ(done.exit_code, 0) << done.out << done.err;
  EXPECT_NE(done.err.find("sent 4 step(s) and 4 artifact(s); 2 new MLflow run(s)"), std::string::npos) << done.err;
  const auto summary = read_json(run / "summary.json");
  const std::string execution_id = summary["execution_id"];

  const std::string experiment = experiment_id("mlflow-it");
  ASSERT_FALSE(experiment.empty());
  const auto runs = runs_of(experiment);
  ASSERT_EQ(runs.size(), 2U);
  for (const auto& method : summary["methods"]) {
    const std::string name = method["name"];
    ASSERT_TRUE(kCases.count(name) == 1) << name;
    ASSERT_TRUE(runs.count(name) == 1) << name << " is not an MLflow run";
    const auto& r = runs.at(name);
    const std::string run_id = r["info"]["run_id"];
    EXPECT_EQ(r["info"]["status"], "FINISHED");
    const auto params = pairs(r["data"]["params"]);
    EXPECT_EQ(params.at("perfzero.trials"), "2");
    EXPECT_EQ(params.at("perfzero.timeout_seconds"), "60");
    const auto tags = pairs(r["data"]["tags"]);
    EXPECT_EQ(tags.at("perfzero.execution_id"), execution_id);
    EXPECT_EQ(tags.at("perfzero.outcome"), "succeeded");
    EXPECT_EQ(tags.at("commit"), "0123abcd");
    EXPECT_EQ(tags.at("mlflow.source.git.commit"), "0123abcd");
    EXPECT_FALSE(tags.at("host").empty());
    EXPECT_FALSE(tags.at("cpu_model").empty());
    // Each trial is a step, once, with the value the run's summary holds.
    const auto wall = history(run_id, "wall_time");
    ASSERT_EQ(wall.size(), 2U) << name;
    for (const auto& trial : method["trials"]) {
      const int number = trial["trial"];
      ASSERT_EQ(wall.count(number), 1U) << name << " step " << number;
      EXPECT_NEAR(wall.find(number)->second, trial["wall_time"].get<double>(), 1e-9);
    }
    const auto listed = server_->get("artifacts/list?run_id=" + run_id + "&path=trial_2");
    ASSERT_EQ(listed["files"].size(), 1U) << listed.dump();
    EXPECT_EQ(listed["files"][0]["path"], "trial_2/perfzero_summary.json");
    const auto report =
        nlohmann::json::parse(server_->artifact(experiment, run_id, "trial_2/perfzero_summary.json"), nullptr, false);
    ASSERT_TRUE(report.is_object());
    EXPECT_TRUE(report.contains("benchmark_result")) << report.dump().substr(0, 300);
    if (name.starts_with("sanity")) {
      EXPECT_EQ(params.at("ms"), "5");
      EXPECT_EQ(history(run_id, "slept_ms").size(), 2U);
    } else {
      EXPECT_EQ(params.at("password"), "<redacted>");
      EXPECT_EQ(history(run_id, "n"), (std::multimap<int, double>{{1, 1.0}, {2, 1.0}}));
      EXPECT_NE(params.at("perfzero.command").find("--password=<redacted>"), std::string::npos);
    }
  }

  // Nothing secret reached the server: not its database, not its artifacts, not what its API says.
  std::string everything = server_->post("runs/search", {{"experiment_ids", {experiment}}}).dump();
  for (const auto& entry : std::filesystem::recursive_directory_iterator(server_->dir())) {
    if (entry.is_regular_file() && entry.path().filename() != "mlflow.log") everything += slurp(entry.path());
  }
  for (const auto& secret : kSecrets) EXPECT_EQ(everything.find(secret), std::string::npos) << secret;

  // Exporting again sends nothing: no step twice, no second MLflow run.
  const auto again = run_perfzero({"export", "mlflow", "run", "--tracking_uri", server_->url()}, dir_->path());
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("nothing to send"), std::string::npos) << again.out;
  EXPECT_EQ(runs_of(experiment).size(), 2U);
  EXPECT_EQ(history(runs.begin()->second["info"]["run_id"], "wall_time").size(), 2U);
}

TEST_F(MlflowExport, ADeadThenRefusingServerLosesNothingAndALaterExportSendsItOnce) {
  // Nothing listens: the run still succeeds, at once, and says what it did not send.
  const auto dead = "http://127.0.0.1:" + std::to_string(free_loopback_port());
  const auto started = std::chrono::steady_clock::now();
  const auto done = run_perfzero({"--config=" + suite().string(), "--output_dir=late", "--execution_label=mlflow-late",
                                  "--report=+mlflow", "--mlflow_tracking_uri=" + dead},
                                 dir_->path());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(done.exit_code, 0) << done.out << done.err;
  EXPECT_LT(seconds, 30.0);  // the trials take under a second; a dead server adds no timeout wait
  EXPECT_NE(done.err.find("NOT sent: 4 step(s), 4 artifact(s)"), std::string::npos) << done.err;
  EXPECT_NE(done.err.find("perfzero export mlflow"), std::string::npos) << done.err;

  // A server that answers 500 to everything: exit 6, and the same is still to send.
  RefusingServer refusing(dir_->path());
  const auto refused = run_perfzero({"export", "mlflow", "late", "--tracking_uri", refusing.url()}, dir_->path());
  EXPECT_EQ(refused.exit_code, 6) << refused.out << refused.err;
  EXPECT_NE(refused.out.find("NOT sent: 4 step(s), 4 artifact(s)"), std::string::npos) << refused.out;
  EXPECT_NE(refused.out.find("HTTP 500"), std::string::npos) << refused.out;
  EXPECT_NE(refusing.requests().find("experiments/get-by-name"), std::string::npos) << refusing.requests();

  // The real server gets everything, once; a second export sends nothing.
  const auto sent = run_perfzero({"export", "mlflow", "late", "--tracking_uri", server_->url()}, dir_->path());
  EXPECT_EQ(sent.exit_code, 0) << sent.out << sent.err;
  EXPECT_NE(sent.out.find("sent 4 step(s) and 4 artifact(s); 2 new MLflow run(s)"), std::string::npos) << sent.out;
  const auto again = run_perfzero({"export", "mlflow", "late", "--tracking_uri", server_->url()}, dir_->path());
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("nothing to send"), std::string::npos) << again.out;

  const auto runs = runs_of(experiment_id("mlflow-late"));
  ASSERT_EQ(runs.size(), 2U);
  for (const auto& [name, r] : runs) {
    EXPECT_TRUE(kCases.count(name) == 1) << name;
    const auto wall = history(r["info"]["run_id"], "wall_time");
    EXPECT_EQ(wall.size(), 2U) << name;
    EXPECT_EQ(wall.count(1), 1U);
    EXPECT_EQ(wall.count(2), 1U);
    const auto listed = server_->get("artifacts/list?run_id=" + r["info"]["run_id"].get<std::string>());
    EXPECT_EQ(listed["files"].size(), 2U) << listed.dump();  // trial_1/ and trial_2/
  }
}

// Without a server named the run does not start: a usage error before anything is written; so is a
// directory that holds no run for `export`.
TEST(MlflowExportUsage, NoServerOrNoRunIsAUsageError) {
  TempDir dir;
  ::unsetenv("MLFLOW_TRACKING_URI");
  const auto no_server = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run", "--report=+mlflow"}, dir.path());
  EXPECT_EQ(no_server.exit_code, 2) << no_server.err;
  EXPECT_NE(no_server.err.find("MLFLOW_TRACKING_URI"), std::string::npos) << no_server.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "run"));
  const auto not_http = run_perfzero({"export", "mlflow", ".", "--tracking_uri", "file:./mlruns"}, dir.path());
  EXPECT_EQ(not_http.exit_code, 2) << not_http.err;
  EXPECT_NE(not_http.err.find("http://"), std::string::npos) << not_http.err;
  const auto no_run = run_perfzero({"export", "mlflow", ".", "--tracking_uri", "http://127.0.0.1:9"}, dir.path());
  EXPECT_EQ(no_run.exit_code, 2) << no_run.err;
  EXPECT_NE(no_run.err.find("holds no run"), std::string::npos) << no_run.err;
}

}  // namespace
}  // namespace perfzero::testing::mlflow_export_test
