// compare/normal_distribution.hpp against published values of the standard normal distribution
// (Abramowitz and Stegun, table 26.1; R's pnorm/qnorm), the tails included, where 1 - cdf loses
// every digit.
#include <gtest/gtest.h>

#include <cmath>

#include "compare/normal_distribution.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::compare::compare_normal_distribution_test {
namespace {

TEST(NormalDistribution, CdfAndUpperMatchPublishedValues) {
  EXPECT_NEAR(normal_cdf(0.0), 0.5, 1e-15);
  EXPECT_NEAR(normal_cdf(1.959963984540054), 0.975, 1e-12);
  EXPECT_NEAR(normal_upper(1.959963984540054), 0.025, 1e-12);
  EXPECT_NEAR(normal_cdf(-1.0), 0.15865525393145707, 1e-14);
  // R: pnorm(10, lower.tail = FALSE) = 7.619853e-24; 1 - pnorm(10) is 0 in doubles.
  EXPECT_NEAR(normal_upper(10.0) / 7.619853024160527e-24, 1.0, 1e-9);
  EXPECT_EQ(1.0 - normal_cdf(10.0), 0.0);
}

TEST(NormalDistribution, QuantilesInvertTheCdfAndTheUpperTail) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-15);
  EXPECT_NEAR(normal_upper_quantile(0.025), 1.959963984540054, 1e-12);
  // R: qnorm(1e-20, lower.tail = FALSE) = 9.262340.
  EXPECT_NEAR(normal_upper_quantile(1e-20), 9.262340089798408, 1e-9);
  for (const double x : {-3.0, -0.5, 0.25, 2.0, 5.0}) {
    EXPECT_NEAR(normal_quantile(normal_cdf(x)), x, 1e-9) << x;
    EXPECT_NEAR(normal_upper_quantile(normal_upper(x)), x, 1e-9) << x;
  }
}

TEST(NormalDistribution, DensityIsThePdf) {
  EXPECT_NEAR(normal_density(0.0), 0.3989422804014327, 1e-15);
  EXPECT_NEAR(normal_density(1.0), 0.24197072451914337, 1e-15);
  EXPECT_DOUBLE_EQ(normal_density(-2.0), normal_density(2.0));
}

}  // namespace
}  // namespace perfzero::compare::compare_normal_distribution_test
