// Runs made at different times (compare/confounding.hpp): when two runs ran together, which side the
// load made busier, and what a row of runs made apart becomes.
#include <gtest/gtest.h>

#include "compare/confounding.hpp"
#include "compare/gate.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::compare::compare_confounding_test {
namespace {

// One case "c" of `n` succeeded trials, `busy` of them flagged host_busy with 1.0 other CPUs busy,
// the others 0.0; the run starts at `start` and each trial takes a second.
results::Run run_of(double start, int n, int busy) {
  results::Run run;
  run.info.execution_timestamp = start;
  results::Case c;
  c.name = "c";
  for (int i = 0; i < n; ++i) {
    results::Trial t;
    t.number = i + 1;
    t.outcome = Outcome::succeeded;
    t.started_offset = i;
    t.harness_seconds = 1;
    if (i < busy) t.flags.emplace_back("host_busy");
    t.samplers["host_load"]["other_busy_cpus"] = i < busy ? 1.0 : 0.0;
    c.trials.push_back(t);
  }
  run.cases.push_back(c);
  return run;
}

MetricComparison row_of(Verdict v, double change, int disturbed) {
  MetricComparison m;
  m.case_name = "c";
  m.metric = "wall_time";
  m.verdict = v;
  m.change = change;
  m.candidate.disturbed = disturbed;
  m.reason = "p = 0.001";
  return m;
}

TEST(Confounding, RunsWhoseSpansOverlapRanTogether) {
  const RunSpan a = run_span(run_of(1000, 10, 0));
  EXPECT_DOUBLE_EQ(a.start, 1000);
  EXPECT_DOUBLE_EQ(a.end, 1010);
  EXPECT_TRUE(ran_together(a, run_span(run_of(1005, 10, 0))));
  EXPECT_FALSE(ran_together(a, run_span(run_of(1011, 10, 0))));
  // A run whose start is not known is not shown to have run with anything.
  EXPECT_FALSE(ran_together(a, run_span(run_of(0, 10, 0))));
}

TEST(Confounding, TheBusierSideIsTheOneWithMoreDisturbedTrialsOrMoreOtherCpusBusy) {
  const CaseLoad quiet = case_load(run_of(1, 10, 0).cases[0]);
  const CaseLoad hog = case_load(run_of(1, 10, 10).cases[0]);
  EXPECT_EQ(hog.disturbed, 10);
  ASSERT_TRUE(hog.other_busy_cpus);
  EXPECT_DOUBLE_EQ(*hog.other_busy_cpus, 1.0);
  EXPECT_EQ(busier_side(quiet, hog), BusierSide::candidate);
  EXPECT_EQ(busier_side(hog, quiet), BusierSide::baseline);
  // 2 of 10 against none: 20 points, under 25, and the median reading is 0 on both.
  EXPECT_EQ(busier_side(quiet, case_load(run_of(1, 10, 2).cases[0])), BusierSide::neither);
  // No flags, but a reading 0.6 CPUs higher: the readings say it.
  CaseLoad unflagged = quiet;
  unflagged.other_busy_cpus = 0.6;
  EXPECT_EQ(busier_side(quiet, unflagged), BusierSide::candidate);
}

TEST(Confounding, ADirectionTheLoadExplainsIsConfoundedAndUndecided) {
  RunComparison report;
  report.settings.use_flagged = true;
  report.rows = {row_of(Verdict::slower, 0.10, 10)};
  mark_confounding(report, run_of(1000, 10, 0), run_of(2000, 10, 10));
  EXPECT_EQ(report.rows[0].verdict, Verdict::confounded);
  EXPECT_EQ(row_gate(report.rows[0]), RowGate::undecided);
  EXPECT_EQ(gate(report).exit_status, 5);
  EXPECT_NE(report.rows[0].reason.find("read slower +10.0% while the candidate run was the busier"), std::string::npos)
      << report.rows[0].reason;
  EXPECT_NE(report.confounding.find("the candidate started 990 s after the baseline ended"), std::string::npos)
      << report.confounding;
  EXPECT_NE(report.confounding.find("perfzero ab"), std::string::npos);
}

// A load can push a reading either way (a hog pinned to one core made the quieter of two same-vs-same
// runs read slower in 6 of 100 pairs): a direction against the load is not decided either. A verdict
// that states no direction keeps it, with the warning.
TEST(Confounding, ADirectionAgainstTheLoadIsConfoundedTooAndNoDirectionKeepsItsVerdict) {
  RunComparison report;
  report.rows = {row_of(Verdict::faster, -0.10, 0), row_of(Verdict::same, 0.0, 0)};
  mark_confounding(report, run_of(1000, 10, 0), run_of(2000, 10, 10));
  EXPECT_EQ(report.rows[0].verdict, Verdict::confounded);
  EXPECT_NE(report.rows[0].reason.find("read faster -10.0% while the candidate run was the busier"), std::string::npos)
      << report.rows[0].reason;
  EXPECT_EQ(report.rows[1].verdict, Verdict::same);
  EXPECT_NE(report.rows[1].reason.find("confounded with when the runs ran"), std::string::npos);
  EXPECT_FALSE(report.confounding.empty());
}

// Disturbed trials judged (--use_flagged) under alike loads: the direction came from disturbed
// measurements, and is not decided.
TEST(Confounding, ADirectionFromJudgedDisturbedTrialsIsConfounded) {
  RunComparison report;
  report.settings.use_flagged = true;
  report.rows = {row_of(Verdict::slower, 0.10, 2)};
  mark_confounding(report, run_of(1000, 10, 2), run_of(2000, 10, 2));
  EXPECT_EQ(report.rows[0].verdict, Verdict::confounded);
  EXPECT_NE(report.rows[0].reason.find("read slower +10.0% from disturbed trials (--use_flagged)"), std::string::npos)
      << report.rows[0].reason;
}

TEST(Confounding, RunsThatRanTogetherOrUnderAlikeLoadsAreLeftAlone) {
  RunComparison together;
  together.settings.use_flagged = true;
  together.rows = {row_of(Verdict::slower, 0.10, 10)};
  mark_confounding(together, run_of(1000, 10, 0), run_of(1005, 10, 10));
  EXPECT_EQ(together.rows[0].verdict, Verdict::slower);
  EXPECT_TRUE(together.confounding.empty());
  RunComparison alike;
  alike.rows = {row_of(Verdict::slower, 0.10, 0)};
  mark_confounding(alike, run_of(1000, 10, 0), run_of(2000, 10, 0));
  EXPECT_EQ(alike.rows[0].verdict, Verdict::slower);
  EXPECT_EQ(alike.rows[0].reason, "p = 0.001");
  EXPECT_TRUE(alike.confounding.empty());
}

}  // namespace
}  // namespace perfzero::compare::compare_confounding_test
