// The verdict rules of `perfzero compare` (docs/compare.md), on runs built in memory.
#include <gtest/gtest.h>

#include "compare/compare_runs.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::compare::compare_verdict_test {
namespace {

results::Case make_case(const std::string& name, const std::vector<double>& values, Direction direction,
                        const std::string& metric = "time_ms") {
  results::Case c;
  c.name = c.method = name;
  int n = 0;
  for (double v : values) {
    results::Trial t;
    t.number = ++n;
    t.outcome = Outcome::succeeded;
    t.wall_time = 1.0 + 0.001 * n;  // the same on both sides: wall_time is "same"
    t.metrics.push_back({metric, v, "ms", std::nullopt, std::nullopt, direction});
    c.trials.push_back(t);
  }
  return c;
}

std::vector<double> around(double centre, int n, double spread = 0.005) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(centre * (1.0 + spread * ((i % 5) - 2) / 2.0));
  return v;
}

const MetricComparison& row(const RunComparison& r, const std::string& case_name, const std::string& metric) {
  for (const auto& m : r.rows) {
    if (m.case_name == case_name && m.metric == metric) return m;
  }
  throw std::runtime_error("no row " + case_name + " " + metric);
}

RunComparison compare_one(const std::vector<double>& base, const std::vector<double>& cand, Direction d,
                          Settings settings = {}) {
  results::Run a;
  results::Run b;
  a.cases.push_back(make_case("m", base, d));
  b.cases.push_back(make_case("m", cand, d));
  return compare_runs(a, b, settings);
}

TEST(Verdict, TenPercentSlowerWithTenTrialsIsSlowerAndFailsTheGate) {
  const RunComparison r = compare_one(around(100, 10), around(110, 10), Direction::lower_is_better);
  const auto& m = row(r, "m", "time_ms");
  EXPECT_EQ(m.verdict, Verdict::slower) << m.reason;
  EXPECT_NEAR(*m.change, 0.10, 0.01);
  EXPECT_GT(*m.ci_low, 0.0);
  EXPECT_LT(*m.p_value, 0.001);
  EXPECT_TRUE(r.regression());
  // The wall times are within 0.5 % of each other on both sides: shown to be within +-5 %.
  EXPECT_EQ(row(r, "m", kWallTimeRow).verdict, Verdict::equivalent);
}

TEST(Verdict, DirectionDecidesWhichWayIsWorse) {
  EXPECT_EQ(row(compare_one(around(100, 10), around(110, 10), Direction::higher_is_better), "m", "time_ms").verdict,
            Verdict::faster);
  EXPECT_EQ(row(compare_one(around(100, 10), around(90, 10), Direction::higher_is_better), "m", "time_ms").verdict,
            Verdict::slower);
  EXPECT_EQ(row(compare_one(around(100, 10), around(90, 10), Direction::lower_is_better), "m", "time_ms").verdict,
            Verdict::faster);
  // No direction declared: never guessed from the name ("time_ms"), so never slower.
  const RunComparison r = compare_one(around(100, 10), around(110, 10), Direction::unspecified);
  EXPECT_EQ(row(r, "m", "time_ms").verdict, Verdict::changed);
  EXPECT_FALSE(r.regression());
}

TEST(Verdict, SmallSignificantChangesAreBelowThresholdNeverSameOrEquivalent) {
  // Clean data, 1 % apart: significant, but below the 5 % that matters; it does not fail the gate.
  const RunComparison report = compare_one(around(100, 10, 0.001), around(101, 10, 0.001), Direction::lower_is_better);
  const auto& m = row(report, "m", "time_ms");
  EXPECT_LT(*m.p_value, 0.05);
  EXPECT_EQ(m.verdict, Verdict::below_threshold) << m.reason;
  EXPECT_FALSE(report.regression());
  Settings strict;
  strict.min_change = 0.005;
  EXPECT_EQ(row(compare_one(around(100, 10, 0.001), around(101, 10, 0.001), Direction::lower_is_better, strict), "m",
                "time_ms")
                .verdict,
            Verdict::slower);
}

TEST(Verdict, TooFewTrialsOrTooMuchSpreadIsTooNoisy) {
  // (The reports are kept in variables: a row refers into its report.)
  const RunComparison few_report = compare_one({100, 100, 100}, {200, 200, 200}, Direction::lower_is_better);
  const auto& few = row(few_report, "m", "time_ms");
  EXPECT_EQ(few.verdict, Verdict::too_noisy);
  EXPECT_NE(few.reason.find("cannot reach"), std::string::npos) << few.reason;
  const RunComparison noisy_report =
      compare_one(around(100, 10, 0.5), around(130, 10, 0.5), Direction::lower_is_better);
  const auto& noisy = row(noisy_report, "m", "time_ms");
  EXPECT_EQ(noisy.verdict, Verdict::too_noisy);
  EXPECT_NE(noisy.reason.find("spread"), std::string::npos) << noisy.reason;
}

TEST(Verdict, CasesAndMetricsOnOneSideOnlyAreListedAsMissing) {
  results::Run a;
  results::Run b;
  a.cases.push_back(make_case("both", around(1, 5), Direction::lower_is_better));
  a.cases.push_back(make_case("only_base", around(1, 5), Direction::lower_is_better));
  b.cases.push_back(make_case("both", around(1, 5), Direction::lower_is_better, "renamed"));
  b.cases.push_back(make_case("only_cand", around(1, 5), Direction::lower_is_better));
  const RunComparison r = compare_runs(a, b, {});
  EXPECT_EQ(row(r, "only_base", "time_ms").verdict, Verdict::missing);
  EXPECT_EQ(row(r, "only_base", kWallTimeRow).verdict, Verdict::missing);
  EXPECT_EQ(row(r, "only_cand", "time_ms").verdict, Verdict::missing);
  EXPECT_EQ(row(r, "both", "time_ms").verdict, Verdict::missing);
  EXPECT_EQ(row(r, "both", "time_ms").reason, "no succeeded trial in the candidate");
  EXPECT_EQ(row(r, "both", "renamed").verdict, Verdict::missing);
  EXPECT_FALSE(r.regression());
}

TEST(Verdict, FailedTrialsAndWarmupsAreNotMeasurements) {
  results::Run a;
  results::Run b;
  a.cases.push_back(make_case("m", around(100, 10), Direction::lower_is_better));
  b.cases.push_back(make_case("m", around(100, 10), Direction::lower_is_better));
  // Failed trials and warm-ups with wild values change nothing.
  for (auto* run : {&b}) {
    results::Trial failed = run->cases[0].trials[0];
    failed.outcome = Outcome::failed;
    failed.metrics[0].value = 1e9;
    results::Trial warm = failed;
    warm.outcome = Outcome::succeeded;
    warm.warmup = true;
    run->cases[0].trials.push_back(failed);
    run->cases[0].trials.push_back(warm);
  }
  EXPECT_EQ(row(compare_runs(a, b, {}), "m", "time_ms").verdict, Verdict::equivalent);
}

TEST(Verdict, NoEvidenceEitherWayIsSameNotEquivalent) {
  // 25 % spread, no shift: p is large, and the interval reaches past +-5 %: nothing is shown.
  Settings loose;
  loose.max_cv = 1.0;
  const RunComparison r = compare_one(around(100, 10, 0.5), around(100, 10, 0.5), Direction::lower_is_better, loose);
  EXPECT_EQ(row(r, "m", "time_ms").verdict, Verdict::same) << row(r, "m", "time_ms").reason;
}

results::Run with_flags(const std::vector<double>& values, int disturbed, const std::string& flag = "host_busy") {
  results::Run run;
  run.cases.push_back(make_case("m", values, Direction::lower_is_better));
  for (int i = 0; i < disturbed; ++i) run.cases[0].trials[static_cast<std::size_t>(i)].flags.push_back(flag);
  return run;
}

TEST(Verdict, DisturbedTrialsNeverDecide) {
  // Every trial of both runs ran on a busy host: the +10 % shows the host, not the change.
  const RunComparison r = compare_runs(with_flags(around(100, 20), 20), with_flags(around(110, 20), 20), {});
  const auto& m = row(r, "m", "time_ms");
  EXPECT_EQ(m.verdict, Verdict::unreliable) << m.reason;
  EXPECT_NE(m.reason.find("host busy in 20/20 vs 20/20 trials"), std::string::npos) << m.reason;
  EXPECT_FALSE(r.regression());
  EXPECT_EQ(m.baseline.disturbed, 20);
  // --use_flagged judges them anyway, and says so.
  Settings use;
  use.use_flagged = true;
  const RunComparison kept = compare_runs(with_flags(around(100, 20), 20), with_flags(around(110, 20), 20), use);
  EXPECT_EQ(row(kept, "m", "time_ms").verdict, Verdict::slower);
  EXPECT_NE(row(kept, "m", "time_ms").reason.find("--use_flagged"), std::string::npos);
}

TEST(Verdict, EnoughUndisturbedTrialsStillDecideAndTheLeftOutAreCounted) {
  const RunComparison r = compare_runs(with_flags(around(100, 20), 5), with_flags(around(110, 20), 3), {});
  const auto& m = row(r, "m", "time_ms");
  EXPECT_EQ(m.verdict, Verdict::slower) << m.reason;
  EXPECT_EQ(m.baseline.values.size(), 15U);
  EXPECT_EQ(m.candidate.values.size(), 17U);
  EXPECT_NE(m.reason.find("5 + 3 disturbed trials left out"), std::string::npos) << m.reason;
  // A flag that says nothing about the timing (a truncated log) leaves the trial in.
  const RunComparison log =
      compare_runs(with_flags(around(100, 20), 20, "log_truncated"), with_flags(around(110, 20), 0), {});
  EXPECT_EQ(row(log, "m", "time_ms").baseline.values.size(), 20U);
}

TEST(Verdict, MetricsChoosesWhatGatesTheExitStatus) {
  Settings only_wall;
  only_wall.metrics = "^wall_time$";
  const RunComparison r = compare_one(around(100, 10), around(110, 10), Direction::lower_is_better, only_wall);
  EXPECT_EQ(row(r, "m", "time_ms").verdict, Verdict::slower);
  EXPECT_FALSE(row(r, "m", "time_ms").gated);
  EXPECT_FALSE(r.regression());
  only_wall.metrics = "time";
  EXPECT_TRUE(compare_one(around(100, 10), around(110, 10), Direction::lower_is_better, only_wall).regression());
}

}  // namespace
}  // namespace perfzero::compare::compare_verdict_test
