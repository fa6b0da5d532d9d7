// The paired statistics of `perfzero ab` (compare/paired.hpp) against published values, and the
// verdict of one metric at a look (compare/paired_verdict.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "compare/paired.hpp"
#include "compare/paired_verdict.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::compare::compare_paired_test {
namespace {

// scipy.stats.wilcoxon's documented example: Fisher's differences in height of cross- and
// self-fertilized Zea mays pairs (n = 15). scipy: statistic 24, exact two-sided p = 0.041259765625.
TEST(Paired, SignedRankPMatchesScipysExample) {
  const std::vector<double> d = {6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75};
  EXPECT_NEAR(signed_rank_p(d), 0.041259765625, 1e-12);
}

TEST(Paired, SignedRankIgnoresZerosAndIsOneWithoutData) {
  EXPECT_EQ(signed_rank_p({}), 1.0);
  EXPECT_EQ(signed_rank_p({0, 0, 0}), 1.0);
  // Five positive differences: the smallest attainable two-sided p for n = 5 is 2 / 2^5.
  EXPECT_NEAR(signed_rank_p({1, 2, 3, 4, 5, 0}), 2.0 / 32.0, 1e-15);
}

TEST(Paired, LargeSamplesUseTheNormalApproximationWithTies) {
  // 60 differences, all +1 or -1 (every one tied): W+ for 40 positives out of 60.
  std::vector<double> d(60, -1.0);
  for (int i = 0; i < 40; ++i) d[static_cast<std::size_t>(i)] = 1.0;
  const double n = 60;
  const double mean = n * (n + 1) / 4;
  const double variance = n * (n + 1) * (2 * n + 1) / 24 - (n * n * n - n) / 48;
  const double w_plus = 40 * (n + 1) / 2;  // every rank is the mid-rank 30.5
  const double z = (std::fabs(w_plus - mean) - 0.5) / std::sqrt(variance);
  EXPECT_NEAR(signed_rank_p(d), std::erfc(z / std::sqrt(2.0)), 1e-12);
}

// Published critical values of the signed-rank statistic for a two-sided test at 0.05 (the
// largest C with P(W+ <= C) <= 0.025): n = 6: 0, 10: 8, 15: 25, 20: 52, 25: 89.
TEST(Paired, CriticalValuesMatchTheTables) {
  EXPECT_EQ(signed_rank_critical(5, 0.025), -1);
  EXPECT_EQ(signed_rank_critical(6, 0.025), 0);
  EXPECT_EQ(signed_rank_critical(10, 0.025), 8);
  EXPECT_EQ(signed_rank_critical(15, 0.025), 25);
  EXPECT_EQ(signed_rank_critical(20, 0.025), 52);
  EXPECT_EQ(signed_rank_critical(25, 0.025), 89);
  // Beyond the exact range the normal approximation gives a nearby figure.
  const long long big = signed_rank_critical(400, 0.025);
  const double mean = 400.0 * 401 / 4;
  const double sd = std::sqrt(400.0 * 401 * 801 / 24);
  EXPECT_NEAR(static_cast<double>(big), mean - 1.959964 * sd, 2.0);
}

TEST(Paired, HodgesLehmannIntervalIsTheWalshAveragesOrderStatistics) {
  // d = 1..10: 55 Walsh averages; the estimate is their median (5.5) and the 95 % interval runs from
  // the 9th smallest to the 9th largest (C = 8).
  std::vector<double> d;
  for (int i = 1; i <= 10; ++i) d.push_back(i);
  std::vector<double> walsh;
  for (std::size_t i = 0; i < d.size(); ++i) {
    for (std::size_t j = i; j < d.size(); ++j) walsh.push_back((d[i] + d[j]) / 2);
  }
  std::sort(walsh.begin(), walsh.end());
  const PairedInterval ci = hodges_lehmann(d, 0.05);
  EXPECT_DOUBLE_EQ(ci.estimate, 5.5);
  ASSERT_TRUE(ci.low && ci.high);
  EXPECT_DOUBLE_EQ(*ci.low, walsh[8]);
  EXPECT_DOUBLE_EQ(*ci.high, walsh[walsh.size() - 9]);
  // Five differences cannot reach 95 %: the interval is unbounded.
  const PairedInterval few = hodges_lehmann({1, 2, 3, 4, 5}, 0.05);
  EXPECT_FALSE(few.low.has_value());
}

PairedSeries pairs_with(double change, double noise, int n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> jitter(0, noise);
  PairedSeries p;
  for (int i = 0; i < n; ++i) {
    const double common = 1.0 + 0.2 * std::sin(i);  // drift both sides share
    p.baseline.push_back(common * std::exp(jitter(rng)));
    p.candidate.push_back(common * (1 + change) * std::exp(jitter(rng)));
    p.disturbed.push_back(false);
  }
  return p;
}

TEST(PairedVerdict, APlantedTenPercentSlowdownIsSlowerUnderSharedDrift) {
  MetricComparison m;
  m.direction = Direction::lower_is_better;
  Settings s;
  ASSERT_TRUE(judge_pairs(m, pairs_with(0.10, 0.01, 20, 1), 0.01, s, false));
  EXPECT_EQ(m.verdict, Verdict::slower) << m.reason;
  EXPECT_NEAR(*m.change, 0.10, 0.02);
  EXPECT_EQ(*m.pairs, 20);
}

TEST(PairedVerdict, NoChangeWithLittleNoiseIsEquivalentAndASmallRealOneBelowThreshold) {
  Settings s;
  MetricComparison same;
  same.direction = Direction::lower_is_better;
  ASSERT_TRUE(judge_pairs(same, pairs_with(0.0, 0.005, 30, 2), 0.01, s, false));
  EXPECT_EQ(same.verdict, Verdict::equivalent) << same.reason;
  MetricComparison small;
  small.direction = Direction::lower_is_better;
  ASSERT_TRUE(judge_pairs(small, pairs_with(0.02, 0.002, 30, 3), 0.01, s, false));
  EXPECT_EQ(small.verdict, Verdict::below_threshold) << small.reason;
}

// Issue 37: an early look whose estimate is past the threshold while its interval reaches below it
// is not "slower beyond the threshold": the change is real, its size against 5 % is not known yet.
TEST(PairedVerdict, AnEstimatePastTheThresholdIsNotSlowerUntilTheIntervalIs) {
  PairedSeries early;  // +1 % .. +10 %: estimate +5.5 %, every difference above zero
  for (int i = 1; i <= 10; ++i) {
    early.baseline.push_back(1.0);
    early.candidate.push_back(1.0 + 0.01 * i);
    early.disturbed.push_back(false);
  }
  MetricComparison m;
  m.direction = Direction::lower_is_better;
  EXPECT_FALSE(judge_pairs(m, early, 0.0079, Settings{}, false));
  EXPECT_EQ(m.verdict, Verdict::unknown) << m.reason;
  ASSERT_TRUE(m.change && m.ci_low);
  EXPECT_GT(*m.change, 0.05);
  EXPECT_GT(*m.ci_low, 0.0);
  EXPECT_LT(*m.ci_low, 0.05);
  EXPECT_FALSE(judge_pairs(m, early, 0.0079, Settings{}, true));
  EXPECT_EQ(m.verdict, Verdict::unknown);
  EXPECT_NE(m.reason.find("not shown beyond the threshold"), std::string::npos) << m.reason;
  // The same differences with a threshold of 1 %: the interval's lower end is past it, so slower.
  Settings one;
  one.min_change = 0.01;
  ASSERT_TRUE(judge_pairs(m, early, 0.0079, one, false));
  EXPECT_EQ(m.verdict, Verdict::slower) << m.reason;
  EXPECT_NE(m.reason.find("lies beyond +1.0%"), std::string::npos) << m.reason;
}

TEST(PairedVerdict, UndecidedIsOpenBeforeTheLastLookAndUnknownOnIt) {
  Settings s;
  // Differences of about +-10 % either way: the interval holds no change and reaches past +-5 %.
  PairedSeries wide;
  for (double c : {1.10, 0.92, 1.12, 0.95, 1.08, 0.90, 1.11, 0.94, 1.09, 0.93, 1.10, 0.96}) {
    wide.baseline.push_back(1.0);
    wide.candidate.push_back(c);
    wide.disturbed.push_back(false);
  }
  MetricComparison m;
  m.direction = Direction::lower_is_better;
  EXPECT_FALSE(judge_pairs(m, wide, 0.01, s, false));
  EXPECT_EQ(m.verdict, Verdict::unknown);
  EXPECT_NE(m.reason.find("open"), std::string::npos);
  EXPECT_FALSE(judge_pairs(m, wide, 0.01, s, true));
  EXPECT_EQ(m.verdict, Verdict::unknown);
  EXPECT_NE(m.reason.find("undecided"), std::string::npos);
}

TEST(PairedVerdict, DisturbedPairsAreCountedAndStillMeasured) {
  auto p = pairs_with(0.10, 0.01, 20, 5);
  for (std::size_t i = 0; i < 20; i += 2) p.disturbed[i] = true;
  p.flags = {{"host_busy", 10}};
  MetricComparison m;
  m.direction = Direction::lower_is_better;
  ASSERT_TRUE(judge_pairs(m, p, 0.01, Settings{}, false));
  EXPECT_EQ(m.verdict, Verdict::slower);
  EXPECT_EQ(m.baseline.disturbed, 10);
  EXPECT_NE(m.reason.find("host busy in 10/20 pairs"), std::string::npos) << m.reason;
}

TEST(PairedVerdict, MetricsThatCanBeZeroAreJudgedAsDifferencesFromTheBaseline) {
  PairedSeries p;
  for (int i = 0; i < 20; ++i) {
    p.baseline.push_back(i % 2 == 0 ? 0.0 : 1.0);
    p.candidate.push_back(p.baseline.back() + 0.5);
    p.disturbed.push_back(false);
  }
  MetricComparison m;
  m.direction = Direction::lower_is_better;
  ASSERT_TRUE(judge_pairs(m, p, 0.01, Settings{}, false));
  EXPECT_EQ(m.verdict, Verdict::slower);
  EXPECT_NEAR(*m.change, 1.0, 1e-9);  // +0.5 against a baseline median of 0.5
}

}  // namespace
}  // namespace perfzero::compare::compare_paired_test
