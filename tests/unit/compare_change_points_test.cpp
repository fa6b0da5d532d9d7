// compare/change_points and compare/student_t_test: the pooled t-test against values computed independently
// (the t distribution integrated numerically), E-Divisive's statistic against its definition, and
// change points on seeded synthetic series: a planted step, two steps, a drift, a noise shift, and
// A/A series that must give none.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "compare/change_points.hpp"
#include "compare/student_t_test.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::compare::compare_change_points_test {
namespace {

std::vector<double> noisy(std::size_t n, double mean, double cv, std::mt19937_64& random) {
  std::normal_distribution<double> noise(0.0, mean * cv);
  std::vector<double> v(n);
  for (auto& x : v) x = mean + noise(random);
  return v;
}

std::vector<double> concat(std::vector<double> a, const std::vector<double>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(StudentTTest, MatchesTheTDistributionIntegratedIndependently) {
  const std::vector<double> a = {1, 2, 3, 4, 5};
  const std::vector<double> b = {2, 4, 6, 8, 10};
  const auto r = student_t_test(moments(a.data(), a.data() + a.size()), moments(b.data(), b.data() + b.size()));
  ASSERT_TRUE(r.has_value());
  EXPECT_NEAR(r->t, 1.8973665961010275, 1e-12);
  EXPECT_EQ(r->df, 8);
  EXPECT_NEAR(r->p_value, 0.0943497728, 1e-8);
  // The interval of the difference holds 3 and is symmetric about it.
  EXPECT_LT(r->diff_low, 3);
  EXPECT_GT(r->diff_high, 3);
  EXPECT_NEAR((r->diff_low + r->diff_high) / 2, 3, 1e-12);
  // Unequal sizes: the variance is pooled, weighted by each side's degrees of freedom.
  const std::vector<double> c = {1, 2, 3};
  const std::vector<double> d = {4, 6, 8, 10};
  const auto u = student_t_test(moments(c.data(), c.data() + 3), moments(d.data(), d.data() + 4));
  EXPECT_NEAR(u->t, 3.1209389196617963, 1e-12);
  EXPECT_NEAR(u->p_value, 0.0262243938, 1e-8);
}

TEST(StudentTTest, DegenerateSides) {
  const std::vector<double> one = {1};
  const std::vector<double> none;
  const std::vector<double> flat = {2, 2, 2};
  const std::vector<double> flat_other = {3, 3, 3};
  EXPECT_FALSE(student_t_test(moments(one.data(), one.data() + 1), moments(one.data(), one.data() + 1)));
  EXPECT_FALSE(student_t_test(moments(none.data(), none.data()), moments(flat.data(), flat.data() + 3)));
  const auto differ =
      student_t_test(moments(flat.data(), flat.data() + 3), moments(flat_other.data(), flat_other.data() + 3));
  ASSERT_TRUE(differ);
  EXPECT_EQ(differ->p_value, 0.0);
  const auto same = student_t_test(moments(flat.data(), flat.data() + 3), moments(flat.data(), flat.data() + 3));
  EXPECT_EQ(same->p_value, 1.0);
}

TEST(EnergyQ, TheRunningSumsAgreeWithTheDefinitionAtEverySplit) {
  std::mt19937_64 random(7);
  const auto v = concat(noisy(20, 10, 0.05, random), noisy(15, 12, 0.05, random));
  // The search's running sums against the definition, at every split of the whole series and of a
  // segment inside it.
  for (const auto& [first, last] : {std::pair<std::size_t, std::size_t>{0, v.size()}, {5, 30}}) {
    const auto q = detail::q_by_split(v, first, last, 2);
    for (std::size_t split = first + 2; split + 2 <= last; ++split) {
      EXPECT_NEAR(q[split - first], energy_q(v, first, split, last), 1e-9 * std::fabs(energy_q(v, first, split, last)))
          << first << " " << split << " " << last;
    }
    EXPECT_TRUE(std::isnan(q[1])) << "a side of one point is below min_segment";
  }
  // The definition's argmax is the planted step, and the point found is there too.
  double best = -1;
  std::size_t best_split = 0;
  for (std::size_t s = 2; s + 2 <= v.size(); ++s) {
    const double q = energy_q(v, 0, s, v.size());
    if (q > best) best = q, best_split = s;
  }
  EXPECT_EQ(best_split, 20U);
  const auto found = find_change_points(v, {});
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0].index, best_split);
  // By hand on a tiny series: {0, 0 | 1, 1}: between 4 pairs at 1, within 0: e = 2, q = 2*2/4*2 = 2.
  EXPECT_DOUBLE_EQ(energy_q({0, 0, 1, 1}, 0, 2, 4), 2.0);
}

TEST(ChangePoints, APlantedTwoPercentStepIsFoundWhereItWasWithItsSizeAndInterval) {
  std::mt19937_64 random(42);
  const auto v = concat(noisy(100, 100, 0.01, random), noisy(100, 102, 0.01, random));
  const auto found = find_change_points(v, {});
  ASSERT_EQ(found.size(), 1U);
  EXPECT_NEAR(static_cast<double>(found[0].index), 100, 3);
  EXPECT_NEAR(found[0].change, 0.02, 0.005);
  EXPECT_LT(found[0].ci_low, found[0].change);
  EXPECT_GT(found[0].ci_high, found[0].change);
  EXPECT_GT(found[0].ci_low, 0);
  EXPECT_LT(found[0].p_value, 0.001);
}

TEST(ChangePoints, TwoStepsUpAndBackDown) {
  std::mt19937_64 random(3);
  const auto v = concat(concat(noisy(60, 50, 0.02, random), noisy(60, 55, 0.02, random)), noisy(60, 50, 0.02, random));
  const auto found = find_change_points(v, {});
  ASSERT_EQ(found.size(), 2U);
  EXPECT_NEAR(static_cast<double>(found[0].index), 60, 3);
  EXPECT_NEAR(static_cast<double>(found[1].index), 120, 3);
  EXPECT_GT(found[0].change, 0.05);
  EXPECT_LT(found[1].change, -0.05);
}

TEST(ChangePoints, ALongSeriesIsSearchedInOverlappingWindows) {
  // 600 runs, window 100: three steps, each inside some window, none lost at a window's edge.
  std::mt19937_64 random(21);
  std::vector<double> v;
  for (const double mean : {100.0, 104.0, 99.0, 103.0}) v = concat(v, noisy(150, mean, 0.01, random));
  ChangePointSettings s;
  s.window = 100;
  const auto found = find_change_points(v, s);
  for (const std::size_t step : {150U, 300U, 450U}) {
    EXPECT_TRUE(std::any_of(found.begin(), found.end(), [&](const ChangePoint& cp) {
      return cp.index + 2 >= step && cp.index <= step + 2 && std::fabs(cp.change) > 0.03;
    })) << step;
  }
  // With this seed the first five runs happen to sit low: a change of 1.6 % at p = 0.0004, the rare
  // false change the A/A goal allows (at most 1 per 1,000 runs; this series has 600).
  EXPECT_LE(found.size(), 4U);
}

TEST(ChangePoints, AaSeriesGiveNoneAcrossManySeeds) {
  int false_changes = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    std::mt19937_64 random(seed);
    false_changes += static_cast<int>(find_change_points(noisy(200, 100, 0.02, random), {}).size());
  }
  // 10,000 A/A points: the goal is at most 1 false change per 1,000 runs (benchmarks/history_changes).
  EXPECT_LE(false_changes, 10);
}

TEST(ChangePoints, MinMagnitudeDropsSmallStepsAndShortSeriesHaveNone) {
  std::mt19937_64 random(5);
  const auto v = concat(noisy(80, 100, 0.002, random), noisy(80, 101, 0.002, random));
  EXPECT_EQ(find_change_points(v, {}).size(), 1U);
  ChangePointSettings s;
  s.min_magnitude = 0.05;
  EXPECT_TRUE(find_change_points(v, s).empty());
  EXPECT_TRUE(find_change_points({1, 2, 3}, {}).empty());
  EXPECT_TRUE(find_change_points({}, {}).empty());
}

TEST(ChangePoints, ASlowDriftIsNotOneCleanStepButIsNotMissedEither) {
  // 10 % over 200 runs in tiny steps, noise 0.5 %: the mean moves; at least one point marks it.
  std::mt19937_64 random(11);
  std::normal_distribution<double> noise(0.0, 0.5);
  std::vector<double> v;
  for (int i = 0; i < 200; ++i) v.push_back(100 + 0.05 * i + noise(random));
  const auto found = find_change_points(v, {});
  ASSERT_FALSE(found.empty());
  for (const auto& cp : found) EXPECT_GT(cp.change, 0);
}

TEST(ChangePoints, ANoiseShiftAloneIsNoStepInTheMean) {
  // E-Divisive sees any change of distribution; the t-test keeps only steps of the mean.
  std::mt19937_64 random(13);
  const auto v = concat(noisy(100, 100, 0.005, random), noisy(100, 100, 0.05, random));
  EXPECT_TRUE(find_change_points(v, {}).empty());
}

}  // namespace
}  // namespace perfzero::compare::compare_change_points_test
