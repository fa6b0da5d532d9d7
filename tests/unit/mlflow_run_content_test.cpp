// What a run becomes in MLflow, without a server: one MLflow run per case with a step per measured
// trial, names MLflow accepts, parameters and tags redacted, statuses; and the export record's round
// trip and its refusal of a damaged file.
#include "mlflow/run_content.hpp"

#include <gtest/gtest.h>

#include <map>

#include "export_test_runs.hpp"
#include "mlflow/export_record.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit.
namespace perfzero::mlflow::run_content_test {
namespace {

std::map<std::string, std::string> as_map(const std::vector<KeyValue>& items) {
  std::map<std::string, std::string> out;
  for (const auto& kv : items) out[kv.key] = kv.value;
  return out;
}

TEST(MlflowRunContent, OneRunPerMeasuredCaseAStepPerTrialAndTheConfigurationAsParameters) {
  const auto run = testing::plain_export_run();
  const auto content = run_content(run, "/runs/r");
  ASSERT_EQ(content.size(), 2U);  // not.reached measured nothing
  const auto& c = content[0];
  EXPECT_EQ(c.run_name, "stream.Stream.triad[n=1000000]");
  ASSERT_EQ(c.steps.size(), 3U);  // the warm-up is no step
  for (int n = 1; n <= 3; ++n) {
    const auto& step = c.steps[static_cast<std::size_t>(n - 1)];
    EXPECT_EQ(step.step, n);
    std::map<std::string, double> values;
    for (const auto& m : step.metrics) {
      values[m.key] = m.value;
      EXPECT_EQ(m.step, n);
      EXPECT_EQ(m.timestamp_ms,
                static_cast<std::int64_t>(std::llround((run.info.execution_timestamp + n * 0.5) * 1000)));
    }
    EXPECT_EQ(values.at("wall_time"), 1.0 + n);
    EXPECT_EQ(values.at("bandwidth"), 10.0 * n);
    EXPECT_EQ(values.at("max_rss"), 1000000.0 + n);
  }
  const auto params = as_map(c.params);
  EXPECT_EQ(params.at("n"), "1000000");
  EXPECT_EQ(params.at("kind"), "triad");
  EXPECT_EQ(params.at("perfzero.trials"), "3");
  EXPECT_EQ(params.at("perfzero.method"), "stream.Stream.triad");
  const auto tags = as_map(c.tags);
  EXPECT_EQ(tags.at("perfzero.execution_id"), "20261122T151200Z-abc123");
  EXPECT_EQ(tags.at("cpu_model"), "AMD EPYC 7J13");
  EXPECT_EQ(tags.at("cloud"), "oci");
  EXPECT_EQ(tags.at("perfzero.outcome"), "succeeded");
  EXPECT_EQ(c.status, "FINISHED");
  EXPECT_EQ(content[1].status, "FAILED");
  ASSERT_EQ(c.artifacts.size(), 0U);  // no trial of this run in memory has a report file
  EXPECT_EQ(experiment_name(run), "nightly");
}

TEST(MlflowRunContent, NamesAreOnesMlflowTakesAndInterruptedTrialsAreNoStepYet) {
  auto run = testing::hostile_export_run();
  run.status = "interrupted";
  auto& c = run.cases.back();
  c.trials_planned = 3;
  c.trials.push_back(testing::export_trial(2, Outcome::interrupted, 0.1));
  c.trials.front().report = "case/trial_1/perfzero_summary.json";
  const auto content = run_content(run, "/runs/r");
  const auto& last = content.back();
  ASSERT_EQ(last.steps.size(), 1U);
  EXPECT_EQ(last.steps[0].step, 1);
  for (const auto& m : last.steps[0].metrics) {
    for (char ch : m.key) {
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || std::string("_-./: ").find(ch) != std::string::npos)
          << m.key;
    }
  }
  EXPECT_EQ(last.status, "KILLED");
  ASSERT_EQ(last.artifacts.size(), 1U);
  EXPECT_EQ(last.artifacts[0].path, "trial_1/perfzero_summary.json");
  EXPECT_EQ(last.artifacts[0].file, std::filesystem::path("/runs/r/case/trial_1/perfzero_summary.json"));
}

TEST(MlflowRunContent, SecretsInParametersCommandsAndReportsAreRedacted) {
  auto run = testing::plain_export_run();
  auto& c = run.cases.front();
  c.params["password"] = "hunter2";
  c.params["url"] = "https://bob:hunter3@db.example/x";
  c.external = true;
  c.command = {"tool", "--token", "hunter4", "API_KEY=hunter5"};
  const auto params = as_map(run_content(run, "/r").front().params);
  EXPECT_EQ(params.at("password"), "<redacted>");
  EXPECT_EQ(params.at("url"), "https://<redacted>@db.example/x");
  EXPECT_EQ(params.at("perfzero.command"), "tool --token <redacted> API_KEY=<redacted>");

  testing::TempDir dir;
  const auto report = dir.write("r.json", R"({"benchmark_result": {"extras": {"api_token": "hunter6", "n": 1}}})");
  const auto text = artifact_text(report);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(text->find("hunter6"), std::string::npos) << *text;
  EXPECT_NE(text->find("\"n\": 1"), std::string::npos) << *text;
  EXPECT_FALSE(artifact_text(dir.write("bad.json", "{not json")).has_value());
  EXPECT_FALSE(artifact_text(dir.path() / "missing.json").has_value());
}

TEST(MlflowExportRecord, RoundTripsAndRefusesADamagedFile) {
  testing::TempDir dir;
  auto record = ExportRecord::load(dir.path());  // none yet: empty
  auto& server = record.server("http://mlflow:5000");
  server.experiment_id = "7";
  server.experiment_name = "nightly";
  auto& c = server.cases["m[a=1]"];
  c.run_id = "abc";
  c.params_sent = true;
  c.tags = {{"perfzero.outcome", "succeeded"}};
  c.steps = {1, 2};
  c.artifacts = {"trial_1/perfzero_summary.json"};
  c.status = "FINISHED";
  record.save();
  auto again = ExportRecord::load(dir.path());
  const auto& back = again.server("http://mlflow:5000");
  EXPECT_EQ(back.experiment_id, "7");
  ASSERT_EQ(back.cases.count("m[a=1]"), 1U);
  const auto& b = back.cases.at("m[a=1]");
  EXPECT_EQ(b.run_id, "abc");
  EXPECT_TRUE(b.params_sent);
  EXPECT_EQ(b.steps, (std::set<int>{1, 2}));
  EXPECT_EQ(b.artifacts.count("trial_1/perfzero_summary.json"), 1U);
  EXPECT_EQ(b.tags.at("perfzero.outcome"), "succeeded");
  EXPECT_EQ(b.status, "FINISHED");
  EXPECT_TRUE(again.server("http://other:5000").cases.empty());

  dir.write(kRecordFile, R"({"version": 1, "servers": {"x": {"cases": 3}}})");
  EXPECT_THROW(ExportRecord::load(dir.path()), std::runtime_error);
}

}  // namespace
}  // namespace perfzero::mlflow::run_content_test
