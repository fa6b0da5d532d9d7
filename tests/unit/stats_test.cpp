#include "report/stats.hpp"

#include <gtest/gtest.h>

namespace perfzero::report {
namespace {

TEST(Stats, MedianMeanSampleStddevAndCv) {
  const Stats s = compute_stats({4, 1, 3, 2});
  EXPECT_EQ(s.count, 4U);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_NEAR(s.stddev, 1.2909944, 1e-6);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_NEAR(s.cv, 1.2909944 / 2.5, 1e-6);
}

TEST(Stats, OneValueHasNoSpreadAndNoneIsEmpty) {
  const Stats one = compute_stats({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
  EXPECT_EQ(compute_stats({}).count, 0U);
  EXPECT_DOUBLE_EQ(compute_stats({0, 0}).cv, 0);
}

}  // namespace
}  // namespace perfzero::report
