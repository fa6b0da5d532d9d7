#include "runner/outcome_classifier.hpp"

#include <signal.h>

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::runner::outcome_classifier_test {
namespace {

TrialExecution exited(int code) {
  TrialExecution e;
  e.end = ProcessEnd::exited;
  e.exit_code = code;
  return e;
}

child_results::ChildResult with_metric(double value, std::optional<double> min, std::optional<double> max) {
  child_results::ChildResult r;
  r.metrics.push_back(Metric{"m", value, "u", min, max});
  return r;
}

TEST(Classify, EveryOutcomeHasItsCause) {
  EXPECT_EQ(classify(exited(0), child_results::ChildResult{}).outcome, Outcome::succeeded);
  EXPECT_EQ(classify(exited(3), std::string("no result file was written")).outcome, Outcome::failed);
  EXPECT_EQ(classify(exited(0), std::string("no result file was written")).outcome, Outcome::invalid);

  TrialExecution signaled;
  signaled.end = ProcessEnd::signaled;
  signaled.signal = SIGSEGV;
  const auto crash = classify(signaled, child_results::ChildResult{});
  EXPECT_EQ(crash.outcome, Outcome::crashed);
  EXPECT_EQ(crash.detail, "ended by SIGSEGV");

  TrialExecution timed_out;
  timed_out.end = ProcessEnd::timed_out;
  EXPECT_EQ(classify(timed_out, child_results::ChildResult{}).outcome, Outcome::timed_out);

  TrialExecution interrupted;
  interrupted.end = ProcessEnd::interrupted;
  interrupted.signal = SIGINT;
  EXPECT_EQ(classify(interrupted, child_results::ChildResult{}).outcome, Outcome::interrupted);

  child_results::ChildResult skipped;
  skipped.skipped = "no GPU";
  const auto skip = classify(exited(0), skipped);
  EXPECT_EQ(skip.outcome, Outcome::skipped);
  EXPECT_EQ(skip.detail, "no GPU");

  TrialExecution not_started;
  not_started.end = ProcessEnd::launch_failed;
  not_started.launch_error = "boom";
  EXPECT_EQ(classify(not_started, child_results::ChildResult{}).outcome, Outcome::failed);
}

TEST(Classify, ReportedErrorsAreFailuresWithAnException) {
  child_results::ChildResult error;
  error.error = "exception: bad";
  const auto c = classify(exited(0), error);
  EXPECT_EQ(c.outcome, Outcome::failed);
  EXPECT_TRUE(c.has_exception);
}

// PerfZero's dashboards drop methods with has_exception: every abnormal end sets it (docs/reports.md).
TEST(Classify, HasExceptionWheneverTheMethodDidNotEndNormally) {
  TrialExecution signaled;
  signaled.end = ProcessEnd::signaled;
  signaled.signal = SIGSEGV;
  TrialExecution timed_out;
  timed_out.end = ProcessEnd::timed_out;
  TrialExecution not_started;
  not_started.end = ProcessEnd::launch_failed;
  EXPECT_TRUE(classify(signaled, child_results::ChildResult{}).has_exception);
  EXPECT_TRUE(classify(timed_out, child_results::ChildResult{}).has_exception);
  EXPECT_TRUE(classify(not_started, child_results::ChildResult{}).has_exception);
  EXPECT_TRUE(classify(exited(3), std::string("no result file was written")).has_exception);
  EXPECT_TRUE(classify(exited(0), std::string("no result file was written")).has_exception);
  child_results::ChildResult skipped;
  skipped.skipped = "no GPU";
  EXPECT_FALSE(classify(exited(0), skipped).has_exception);
  EXPECT_FALSE(classify(exited(0), child_results::ChildResult{}).has_exception);
  EXPECT_FALSE(classify(exited(0), with_metric(11, std::nullopt, 10.0)).has_exception);
}

TEST(Classify, MetricsOutsideTheirBoundsFail) {
  EXPECT_EQ(classify(exited(0), with_metric(5, 1.0, 10.0)).outcome, Outcome::succeeded);
  EXPECT_EQ(classify(exited(0), with_metric(0.5, 1.0, std::nullopt)).outcome, Outcome::failed);
  const auto above = classify(exited(0), with_metric(11, std::nullopt, 10.0));
  EXPECT_EQ(above.outcome, Outcome::failed);
  EXPECT_NE(above.detail.find("above its max_value"), std::string::npos);
}

TEST(ChildResultParser, ChecksEveryField) {
  EXPECT_TRUE(
      std::holds_alternative<child_results::ChildResult>(child_results::parse_child_result(R"({"metrics": []})")));
  const auto full = child_results::parse_child_result(
      R"({"metrics": [{"name": "x", "value": 2, "unit": "s", "min_value": 1, "max_value": 3}], "extras": {"k": 1},
          "ml_framework_info": {"name": "onednn"}, "self_wall_time": 0.5})");
  ASSERT_TRUE(std::holds_alternative<child_results::ChildResult>(full));
  const auto& r = std::get<child_results::ChildResult>(full);
  EXPECT_EQ(r.metrics.at(0).unit, "s");
  EXPECT_EQ(*r.metrics.at(0).max_value, 3);
  EXPECT_EQ(*r.self_wall_time, 0.5);
  EXPECT_TRUE(std::holds_alternative<child_results::ChildResult>(
      child_results::parse_child_result(R"({"skipped": "no GPU"})")));
  const auto directed = child_results::parse_child_result(
      R"({"metrics": [{"name": "a", "value": 1, "direction": "higher"}, {"name": "b", "value": 1, "direction": "lower"},
                      {"name": "c", "value": 1}]})");
  ASSERT_TRUE(std::holds_alternative<child_results::ChildResult>(directed));
  EXPECT_EQ(std::get<child_results::ChildResult>(directed).metrics.at(0).direction, Direction::higher_is_better);
  EXPECT_EQ(std::get<child_results::ChildResult>(directed).metrics.at(1).direction, Direction::lower_is_better);
  EXPECT_EQ(std::get<child_results::ChildResult>(directed).metrics.at(2).direction, Direction::unspecified);

  const std::vector<std::pair<std::string, std::string>> bad{
      {"not json", "not valid JSON"},
      {"[1]", "JSON object"},
      {"{}", "no 'metrics'"},
      {R"({"metrics": {}})", "must be a list"},
      {R"({"metrics": [{"value": 1}]})", "non-empty string 'name'"},
      {R"({"metrics": [{"name": "x", "value": "fast"}]})", "finite number 'value'"},
      {R"({"metrics": [{"name": "x", "value": 1, "unit": 5}]})", "'unit' must be a string"},
      {R"({"metrics": [{"name": "x", "value": 1, "max_value": "y"}]})", "'max_value' must be a number"},
      {R"({"metrics": [], "extras": []})", "'extras' must be an object"},
      {R"({"metrics": [{"name": "x", "value": 1, "direction": "up"}]})",
       R"('direction' must be "higher" or "lower", got "up")"},
      {R"({"metrics": [{"name": "x", "value": 1, "direction": 1}]})",
       "'direction' must be \"higher\" or \"lower\", got a number"},
  };
  for (const auto& [text, expected] : bad) {
    const auto parsed = child_results::parse_child_result(text);
    ASSERT_TRUE(std::holds_alternative<std::string>(parsed)) << text;
    EXPECT_NE(std::get<std::string>(parsed).find(expected), std::string::npos) << std::get<std::string>(parsed);
  }
}

}  // namespace
}  // namespace perfzero::runner::outcome_classifier_test
