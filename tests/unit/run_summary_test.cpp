#include "report/run_summary.hpp"

#include <gtest/gtest.h>

namespace perfzero::report {
namespace {

TrialSummary trial(int n, Outcome outcome, double wall, double metric) {
  TrialSummary t;
  t.trial = n;
  t.outcome = outcome;
  t.wall_time = wall;
  t.metrics.push_back({"speed", metric, "GB/s"});
  return t;
}

CaseSummary sample_case() {
  CaseSummary c;
  c.name = "fam.Cls.method[x=1,y=2]";
  c.method = "fam.Cls.method";
  c.trials_planned = 3;
  c.trials = {trial(1, Outcome::succeeded, 1.0, 10), trial(2, Outcome::succeeded, 3.0, 30),
              trial(3, Outcome::failed, 100.0, 1000)};
  return c;
}

TEST(CaseOutcome, TheWorstTrialDecides) {
  CaseSummary c = sample_case();
  EXPECT_EQ(case_outcome(c), Outcome::failed);
  c.trials[0].outcome = Outcome::crashed;
  EXPECT_EQ(case_outcome(c), Outcome::crashed);
  CaseSummary skipped;
  skipped.trials = {trial(1, Outcome::skipped, 0, 0)};
  EXPECT_EQ(case_outcome(skipped), Outcome::skipped);
}

TEST(SummaryJson, StatisticsUseSucceededTrialsOnly) {
  RunContext run;
  run.execution_id = "id";
  const auto j = summary_json(run, {sample_case()}, "completed");
  const auto& m = j["methods"][0];
  EXPECT_EQ(m["outcome"], "failed");
  EXPECT_EQ(m["trials_run"], 3);
  EXPECT_EQ(m["trial_outcomes"]["succeeded"], 2);
  EXPECT_EQ(m["wall_time"]["count"], 2);
  EXPECT_DOUBLE_EQ(m["wall_time"]["median"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(m["metrics"]["speed"]["max"].get<double>(), 30.0);
  EXPECT_EQ(m["metrics"]["speed"]["unit"], "GB/s");
  EXPECT_EQ(j["method_outcomes"]["failed"], 1);
}

TEST(SummaryCsv, QuotesFieldsWithCommasAndHasOneRowPerMetric) {
  const std::string csv = summary_csv({sample_case()});
  EXPECT_NE(csv.find("\"fam.Cls.method[x=1,y=2]\",fam.Cls.method,failed,3,2,wall_time,s,2,2,"), std::string::npos);
  EXPECT_NE(csv.find(",speed,GB/s,2,20,"), std::string::npos);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
}

TEST(SummaryMarkdown, ListsProblems) {
  RunContext run;
  run.execution_id = "id";
  const std::string md = summary_markdown(run, {sample_case()}, "completed");
  EXPECT_NE(md.find("| fam.Cls.method[x=1,y=2] | failed | 2/3 |"), std::string::npos);
  EXPECT_NE(md.find("## Problems"), std::string::npos);
}

TEST(SummaryFromReport, ReadsBackWhatATrialReportHolds) {
  const nlohmann::json report = {
      {"benchmark_result", {{"trial_id", 2}, {"wall_time", 1.5}, {"metrics", {{{"name", "speed"}, {"value", 3.0}}}}}},
      {"perfzero_cpp", {{"outcome", "succeeded"}, {"outcome_detail", ""}, {"metric_units", {{"speed", "GB/s"}}}}}};
  const auto t = summary_from_report(report);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->trial, 2);
  EXPECT_EQ(t->metrics.at(0).unit, "GB/s");
  EXPECT_TRUE(t->resumed);
  EXPECT_FALSE(summary_from_report(nlohmann::json{{"x", 1}}).has_value());
}

}  // namespace
}  // namespace perfzero::report
