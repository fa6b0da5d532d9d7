#include "run_outputs/summary_reporters.hpp"

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::run_outputs::summary_reporters_test {
namespace {

results::Trial trial(int n, Outcome outcome, double wall, double metric) {
  results::Trial t;
  t.number = n;
  t.outcome = outcome;
  t.wall_time = wall;
  t.metrics.push_back({"speed", metric, "GB/s", std::nullopt, std::nullopt});
  return t;
}

results::Run sample_run() {
  results::Run run;
  run.info.execution_id = "id";
  run.status = "completed";
  results::Case c;
  c.name = "fam.Cls.method[x=1,y=2]";
  c.method = "fam.Cls.method";
  c.trials_planned = 3;
  c.trials = {trial(1, Outcome::succeeded, 1.0, 10), trial(2, Outcome::succeeded, 3.0, 30),
              trial(3, Outcome::failed, 100.0, 1000)};
  c.trials[2].detail = "exited with code 1";
  results::Case unreached;
  unreached.name = "not.reached";
  run.cases = {c, unreached};
  run.comparisons.push_back({"ratio", c.name, "speed", c.name, "speed", 2.0});
  return run;
}

TEST(SummaryJson, StatisticsOutcomesTrialsAndComparisons) {
  const auto j = summary_json(sample_run());
  ASSERT_EQ(j["methods"].size(), 1U) << "a case that never ran is not listed";
  const auto& m = j["methods"][0];
  EXPECT_EQ(m["outcome"], "failed");
  EXPECT_EQ(m["trials_run"], 3);
  EXPECT_EQ(m["trials_succeeded"], 2);
  EXPECT_EQ(m["trial_outcomes"]["succeeded"], 2);
  EXPECT_EQ(m["wall_time"]["count"], 2);
  EXPECT_DOUBLE_EQ(m["wall_time"]["median"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(m["metrics"]["speed"]["max"].get<double>(), 30.0);
  EXPECT_EQ(m["metrics"]["speed"]["unit"], "GB/s");
  EXPECT_EQ(m["trials"][1]["metrics"]["speed"], 30.0) << "every trial's metrics are kept";
  EXPECT_EQ(j["method_outcomes"]["failed"], 1);
  EXPECT_EQ(j["schema_version"], results::kSchemaVersion);
  EXPECT_DOUBLE_EQ(j["comparisons"][0]["ratio"].get<double>(), 1.0);
  EXPECT_EQ(j["comparisons"][0]["goal_met"], false);
}

TEST(SummaryCsv, QuotesFieldsWithCommasHasOneRowPerMetricAndEmptyCellsForNoData) {
  auto run = sample_run();
  const std::string csv = summary_csv(run);
  EXPECT_NE(csv.find("\"fam.Cls.method[x=1,y=2]\",fam.Cls.method,failed,3,2,wall_time,s,2,2,"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",speed,GB/s,2,20,"), std::string::npos);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  for (auto& t : run.cases[0].trials) t.outcome = Outcome::crashed;
  const std::string none = summary_csv(run);
  EXPECT_NE(none.find(",wall_time,s,0,,,,,,,,\n"), std::string::npos) << none;
}

TEST(SummaryMarkdown, ListsProblemsAndFlaggedTrials) {
  auto run = sample_run();
  run.cases[0].trials[0].flags = {"host_busy"};
  const std::string md = summary_markdown(run);
  EXPECT_NE(md.find("| fam.Cls.method[x=1,y=2] | failed | 2/3 (1 flagged) |"), std::string::npos) << md;
  EXPECT_NE(md.find("## Problems"), std::string::npos);
  EXPECT_NE(md.find("trial 3: failed: exited with code 1"), std::string::npos);
  EXPECT_NE(md.find("trial 1: host_busy"), std::string::npos);
  EXPECT_NE(md.find("1.00x"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::run_outputs::summary_reporters_test
