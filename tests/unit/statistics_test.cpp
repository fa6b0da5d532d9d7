#include "results/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::results::statistics_test {
namespace {

TEST(Stats, MedianMeanSampleStddevCvAndPercentiles) {
  const Stats s = compute_stats({4, 1, 3, 2});
  EXPECT_EQ(s.count, 4U);
  EXPECT_DOUBLE_EQ(*s.median, 2.5);
  EXPECT_DOUBLE_EQ(*s.mean, 2.5);
  EXPECT_NEAR(*s.stddev, 1.2909944, 1e-6);
  EXPECT_DOUBLE_EQ(*s.min, 1);
  EXPECT_DOUBLE_EQ(*s.max, 4);
  EXPECT_NEAR(*s.cv, 1.2909944 / 2.5, 1e-6);
  // NumPy's default (linear) percentiles of [1, 2, 3, 4].
  EXPECT_DOUBLE_EQ(*s.p25, 1.75);
  EXPECT_DOUBLE_EQ(*s.p75, 3.25);
  EXPECT_NEAR(*s.p5, 1.15, 1e-12);
  EXPECT_NEAR(*s.p95, 3.85, 1e-12);
}

TEST(Stats, NoDataIsNullNeverZero) {
  const Stats none = compute_stats({});
  EXPECT_EQ(none.count, 0U);
  EXPECT_FALSE(none.median.has_value());
  EXPECT_FALSE(none.min.has_value());
  const auto j = to_json(none);
  EXPECT_TRUE(j["median"].is_null());
  EXPECT_TRUE(j["p95"].is_null());
  EXPECT_EQ(j["count"], 0);

  const Stats one = compute_stats({7});
  EXPECT_DOUBLE_EQ(*one.median, 7);
  EXPECT_FALSE(one.stddev.has_value()) << "a sample stddev needs two values";
  EXPECT_FALSE(one.cv.has_value());
  EXPECT_FALSE(compute_stats({0, 0}).cv.has_value()) << "cv of a zero mean is undefined";
}

Trial trial(int n, Outcome outcome, double wall, double metric) {
  Trial t;
  t.number = n;
  t.outcome = outcome;
  t.wall_time = wall;
  t.metrics.push_back({"speed", metric, "GB/s", std::nullopt, std::nullopt});
  return t;
}

// One rule for every output: what does not fit in a double is absent (null, an empty cell), and no
// percentile leaves the range of the values.
TEST(Stats, ValuesAtTheDoublesLimitGiveFiniteFiguresOrNone) {
  constexpr double kBig = 1.7e308;
  const Stats s = compute_stats({-kBig, kBig, -kBig, kBig});
  ASSERT_TRUE(s.mean.has_value());
  EXPECT_DOUBLE_EQ(*s.mean, 0.0);
  // The sample stddev is kBig * sqrt(4/3), past the largest double: absent, and so is cv.
  EXPECT_FALSE(s.stddev.has_value());
  EXPECT_FALSE(s.cv.has_value());
  for (const auto& p : {s.p5, s.p25, s.median, s.p75, s.p95}) {
    ASSERT_TRUE(p.has_value());
    EXPECT_GE(*p, *s.min);
    EXPECT_LE(*p, *s.max);
  }
  EXPECT_DOUBLE_EQ(*s.p5, -kBig);
  EXPECT_DOUBLE_EQ(*s.median, 0.0);
  const auto j = to_json(s);
  EXPECT_TRUE(j["stddev"].is_null());
  EXPECT_TRUE(j["cv"].is_null());

  // Large but representable: the plain sums overflow, the scaled ones do not.
  const Stats big = compute_stats({kBig, kBig / 2, kBig});
  ASSERT_TRUE(big.mean.has_value());
  EXPECT_NEAR(*big.mean / kBig, 5.0 / 6.0, 1e-15);
  ASSERT_TRUE(big.stddev.has_value());
  EXPECT_NEAR(*big.stddev / kBig, std::sqrt(1.0 / 12.0), 1e-15);
  ASSERT_TRUE(big.cv.has_value());
  EXPECT_NEAR(*big.cv, std::sqrt(1.0 / 12.0) / (5.0 / 6.0), 1e-14);

  const Stats inf = compute_stats({1.0, std::numeric_limits<double>::infinity()});
  EXPECT_FALSE(inf.max.has_value());
  EXPECT_FALSE(inf.mean.has_value());
  EXPECT_DOUBLE_EQ(*inf.min, 1.0);
}

TEST(Stats, PercentilesOfEqualNeighboursAreExactlyThem) {
  const Stats s = compute_stats({0.1, 0.1, 0.1, 0.1, 0.1});
  EXPECT_EQ(*s.p5, 0.1);
  EXPECT_EQ(*s.p95, 0.1);
  EXPECT_EQ(*s.median, 0.1);
}

TEST(CaseStats, UseSucceededTrialsOnlyAndCountFlags) {
  Case c;
  c.trials = {trial(1, Outcome::succeeded, 1.0, 10), trial(2, Outcome::succeeded, 3.0, 30),
              trial(3, Outcome::failed, 100.0, 1000)};
  c.trials[1].flags = {"host_busy"};
  const CaseStats s = case_stats(c);
  EXPECT_EQ(s.trials_succeeded, 2);
  EXPECT_EQ(s.trials_flagged, 1);
  EXPECT_DOUBLE_EQ(*s.wall_time.median, 2.0);
  ASSERT_EQ(s.metrics.size(), 1U);
  EXPECT_DOUBLE_EQ(*s.metrics[0].stats.max, 30.0);
  EXPECT_EQ(s.metrics[0].unit, "GB/s");
  EXPECT_EQ(case_outcome(c), Outcome::failed);
}

TEST(CaseOutcome, TheWorstTrialDecides) {
  Case c;
  c.trials = {trial(1, Outcome::succeeded, 1, 1), trial(2, Outcome::crashed, 1, 1)};
  EXPECT_EQ(case_outcome(c), Outcome::crashed);
  Case skipped;
  skipped.trials = {trial(1, Outcome::skipped, 0, 0)};
  EXPECT_EQ(case_outcome(skipped), Outcome::skipped);
  EXPECT_EQ(case_outcome(Case{}), Outcome::interrupted);
}

}  // namespace
}  // namespace perfzero::results::statistics_test
