// The per-trial report keeps PerfZero's keys exactly, whatever the results model holds.
#include "run_outputs/trial_report.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "common/files.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::run_outputs::trial_report_test {
namespace {

std::set<std::string> keys(const nlohmann::json& object) {
  std::set<std::string> out;
  for (const auto& [key, value] : object.items()) out.insert(key);
  return out;
}

struct Sample {
  results::RunInfo info;
  results::Case c;
  results::Trial t;
  Sample() {
    info.execution_id = "exec";
    info.execution_timestamp = 1.5e9;
    info.execution_label = "nightly";
    info.harness_version = "0.1.0";
    info.ml_framework_build_label = "build-7";
    info.system_info = {{"cpu_model", "X"}};
    info.system = {{"ocpu_count", 1}};
    c.name = "ext.cmd[n=1]";
    c.method = "ext.cmd";
    c.external = true;
    c.command = {"/bin/true"};
    c.trials_planned = 3;
    t.number = 2;
    t.outcome = Outcome::failed;
    t.detail = "exited with code 3";
    t.exit_code = 3;
    t.wall_time = 0.25;
    t.metrics.push_back({"items", 42, "items/s", 0.0, std::nullopt, Direction::higher_is_better});
    t.metrics.push_back({"loss", 0.5, "1", std::nullopt, std::nullopt, Direction::unspecified});
    t.process.max_rss = 1 << 20;
    t.samplers = {{"host_load", {{"busy", true}}}};
    t.flags = {"host_busy"};
  }
};

TEST(TrialReport, HasPerfZerosKeysExactlyPlusOurs) {
  const Sample s;
  const auto r = build_trial_report(s.info, s.c, s.t, "/tmp/run/case/trial_2");
  EXPECT_EQ(keys(r), (std::set<std::string>{"execution_id", "execution_timestamp", "setup_info", "benchmark_result",
                                            "benchmark_info", "ml_framework_info", "system_info", "process_info",
                                            "schema_version", "perfzero_cpp"}));
  EXPECT_EQ(keys(r["benchmark_result"]),
            (std::set<std::string>{"name", "wall_time", "succeeded", "metrics", "extras", "trial_id"}));
  EXPECT_EQ(keys(r["benchmark_info"]),
            (std::set<std::string>{"harness_name", "harness_info", "has_exception", "execution_label", "output_url",
                                   "env_vars", "flags", "site_package_info"}));
  EXPECT_EQ(keys(r["ml_framework_info"]), (std::set<std::string>{"name", "version", "build_version", "build_label"}));
  EXPECT_EQ(keys(r["process_info"]), (std::set<std::string>{"max_rss", "max_vms", "max_cpu_percent"}));
}

TEST(TrialReport, CarriesTheTrialAsTheModelHasIt) {
  const Sample s;
  const auto r = build_trial_report(s.info, s.c, s.t, "/tmp/run/case/trial_2");
  EXPECT_EQ(r["benchmark_result"]["name"], "ext.cmd[n=1]");
  EXPECT_EQ(r["benchmark_result"]["succeeded"], false);
  EXPECT_EQ(r["benchmark_result"]["trial_id"], 2);
  EXPECT_EQ(r["benchmark_result"]["metrics"][0],
            (nlohmann::json{{"name", "items"}, {"value", 42.0}, {"min_value", 0.0}}));
  EXPECT_EQ(r["benchmark_info"]["output_url"], "file:///tmp/run/case/trial_2");
  EXPECT_EQ(r["ml_framework_info"]["name"], "external");
  EXPECT_EQ(r["ml_framework_info"]["build_label"], "build-7");
  EXPECT_EQ(r["process_info"]["max_rss"], 1 << 20);
  EXPECT_EQ(r["schema_version"], results::kSchemaVersion);
  const auto& ours = r["perfzero_cpp"];
  EXPECT_EQ(ours["outcome"], "failed");
  EXPECT_EQ(ours["exit_code"], 3);
  EXPECT_TRUE(ours["signal"].is_null());
  EXPECT_EQ(ours["metric_units"]["items"], "items/s");
  // PerfZero's metric entries stay as they were; the direction is ours, and only where declared.
  EXPECT_EQ(ours["metric_directions"], (nlohmann::json{{"items", "higher"}}));
  EXPECT_EQ(ours["samplers"]["host_load"]["busy"], true);
  EXPECT_EQ(ours["flags"][0], "host_busy");
  EXPECT_EQ(ours["command"][0], "/bin/true");
  EXPECT_EQ(ours["system"]["ocpu_count"], 1);
}

TEST(TrialReport, ABuiltInMethodNamesTheHarnessAsItsFrameworkUnlessItSaysOtherwise) {
  Sample s;
  s.c.external = false;
  auto r = build_trial_report(s.info, s.c, s.t, "/tmp/x");
  EXPECT_EQ(r["ml_framework_info"]["name"], "perfzero-cpp");
  EXPECT_EQ(r["ml_framework_info"]["version"], "0.1.0");
  EXPECT_FALSE(r["perfzero_cpp"].contains("command"));
  s.t.ml_framework_info = {{"name", "oneDNN"}, {"version", "2.6.3"}, {"build_version", 7}};
  r = build_trial_report(s.info, s.c, s.t, "/tmp/x");
  EXPECT_EQ(r["ml_framework_info"]["name"], "oneDNN");
  EXPECT_EQ(r["ml_framework_info"]["build_version"], "") << "a non-string value is not taken";
}

// process_info.log is written for every trial, as PerfZero's; another sampler's series only when it
// holds a sample (a trial shorter than one monitor tick leaves it empty), and none for a sampler
// that never started.
TEST(ProcessLogReporter, WritesProcessInfoAlwaysAndOtherSeriesOnlyWithSamples) {
  testing::TempDir dir;
  Sample s;
  results::Run run;
  run.info = s.info;
  s.t.outcome = Outcome::succeeded;
  results::TrialArtifacts artifacts;
  artifacts.dir = dir.path();
  artifacts.series.push_back({"process_tree", {"time", "rss"}, {}});
  artifacts.series.push_back({"host_load", {"time", "busy"}, {}});
  artifacts.series.push_back({"gpu", {"time", "sm"}, {{0.1, 50}, {0.2, 60}}});
  artifacts.series.push_back({"", {}, {}});
  make_process_log_reporter()->trial_finished(run, s.c, s.t, artifacts);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "process_info.log"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "sampler_host_load.log"));
  EXPECT_EQ(files::read_text(dir.path() / "sampler_gpu.log").value_or(""),
            "{\"sm\":50,\"time\":0.1}\n{\"sm\":60,\"time\":0.2}\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "sampler_.log"));
}

}  // namespace
}  // namespace perfzero::run_outputs::trial_report_test
