// The statistics of `perfzero compare` against values known from elsewhere: scipy.stats.mannwhitneyu's
// documented results, the exact distribution's textbook critical values, and the normal
// approximation worked out by hand (the formulas scipy uses, evaluated in Python's math module).
#include "compare/significance.hpp"

#include <gtest/gtest.h>

#include <numeric>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::compare::compare_significance_test {
namespace {

std::vector<double> range(int from, int to) {
  std::vector<double> v(static_cast<std::size_t>(to - from + 1));
  std::iota(v.begin(), v.end(), static_cast<double>(from));
  return v;
}

TEST(MannWhitney, ScipysDocumentedExample) {
  // scipy.stats.mannwhitneyu docs: males [19, 22, 16, 29, 24], females [20, 11, 17, 12]:
  // statistic 17.0, exact p 0.1111111111111111; with method='asymptotic' 0.11134688653314041.
  const auto r = mann_whitney_u({19, 22, 16, 29, 24}, {20, 11, 17, 12});
  EXPECT_DOUBLE_EQ(r.u, 17.0);
  EXPECT_TRUE(r.exact);
  EXPECT_NEAR(r.p_value, 1.0 / 9.0, 1e-12);
}

TEST(MannWhitney, ExactDistributionMatchesTheTables) {
  // Five against five fully separated: 2 of the C(10,5) = 252 orderings are as extreme.
  EXPECT_NEAR(mann_whitney_u(range(1, 5), range(6, 10)).p_value, 2.0 / 252.0, 1e-12);
  // The tables' two-sided 5 % critical value for n1 = n2 = 5 is U = 2: P(U <= 2) = 4/252, P(U <= 3) = 7/252.
  EXPECT_NEAR(mann_whitney_u({1, 2, 3, 4, 7}, {5, 6, 8, 9, 10}).p_value, 2.0 * 4.0 / 252.0, 1e-12);
  EXPECT_NEAR(mann_whitney_u({1, 2, 3, 4, 8}, {5, 6, 7, 9, 10}).p_value, 2.0 * 7.0 / 252.0, 1e-12);
  // Symmetric: which sample comes first changes U, not p.
  EXPECT_DOUBLE_EQ(mann_whitney_u(range(6, 10), range(1, 5)).u, 25.0);
  EXPECT_NEAR(mann_whitney_u(range(6, 10), range(1, 5)).p_value, 2.0 / 252.0, 1e-12);
}

TEST(MannWhitney, NormalApproximationWithTieAndContinuityCorrection) {
  // Ten against ten: z = (100 - 50 - 0.5) / sqrt(175), p = erfc(z / sqrt(2)) = 0.0001826717911095504.
  const auto separated = mann_whitney_u(range(1, 10), range(11, 20));
  EXPECT_FALSE(separated.exact);
  EXPECT_DOUBLE_EQ(separated.u, 0.0);
  EXPECT_NEAR(separated.p_value, 0.0001826717911095504, 1e-15);
  // With ties (mid-ranks, and the variance reduced by sum(t^3 - t)): U = 20.5, p = 0.02771365878685942.
  const auto tied = mann_whitney_u({1, 2, 2, 3, 4, 5, 5, 6, 7, 8}, {3, 4, 5, 6, 7, 8, 9, 9, 10, 11});
  EXPECT_DOUBLE_EQ(tied.u, 20.5);
  EXPECT_NEAR(tied.p_value, 0.02771365878685942, 1e-12);
}

TEST(MannWhitney, IdenticalSamplesAreNotDifferent) {
  EXPECT_DOUBLE_EQ(mann_whitney_u({5, 5, 5}, {5, 5, 5}).p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u({1}, {1}).p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u(range(1, 10), range(1, 10)).p_value, 1.0);
}

TEST(MannWhitney, SmallestAttainablePTellsWhenTooFewTrialsCanNeverBeSignificant) {
  EXPECT_NEAR(smallest_attainable_p(3, 3), 0.1, 1e-12);  // 2 / C(6,3)
  EXPECT_NEAR(smallest_attainable_p(5, 5), 2.0 / 252.0, 1e-12);
  EXPECT_DOUBLE_EQ(smallest_attainable_p(0, 5), 1.0);
  EXPECT_LT(smallest_attainable_p(10, 10), 0.001);
}

TEST(Bootstrap, SeededAndReproducible) {
  const std::vector<double> base{100, 101, 99, 102, 98, 100, 101, 99, 100, 103};
  const std::vector<double> cand{110, 111, 109, 112, 108, 110, 111, 109, 110, 113};
  const auto a = bootstrap_median_change(base, cand, 2000, 42);
  const auto b = bootstrap_median_change(base, cand, 2000, 42);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->low, b->low);
  EXPECT_EQ(a->high, b->high);
  // The true change is +10 %: the interval holds it and excludes no change.
  EXPECT_LT(a->low, 0.10);
  EXPECT_GT(a->high, 0.10);
  EXPECT_GT(a->low, 0.05);
  const auto other_seed = bootstrap_median_change(base, cand, 2000, 43);
  ASSERT_TRUE(other_seed);
  EXPECT_NEAR(other_seed->low, a->low, 0.02);
}

TEST(Bootstrap, ConstantSamplesGiveTheExactChangeAndZeroIsRefused) {
  const auto exact = bootstrap_median_change({2, 2, 2}, {3, 3, 3}, 500, 1);
  ASSERT_TRUE(exact);
  EXPECT_DOUBLE_EQ(exact->low, 0.5);
  EXPECT_DOUBLE_EQ(exact->high, 0.5);
  EXPECT_FALSE(bootstrap_median_change({0, 0}, {1, 1}, 500, 1));
  EXPECT_FALSE(bootstrap_median_change({}, {1, 1}, 500, 1));
}

}  // namespace
}  // namespace perfzero::compare::compare_significance_test
