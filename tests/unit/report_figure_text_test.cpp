// How the report's figures read: SI prefixes, costs per a power of 1000 runs, ratios with their
// intervals (issue 19, item 7: "4.44e+08" and "$4.85e-06" are not for people).
#include "report/figure_text.hpp"

#include <gtest/gtest.h>

namespace perfzero::report {
namespace {

results::Stats stats(double median, double min, double max) {
  results::Stats s;
  s.count = 3;
  s.median = median;
  s.min = min;
  s.max = max;
  return s;
}

TEST(FigureText, RatesTakeSiPrefixes) {
  EXPECT_EQ(si(4.44e8, "points/s"), "444 M points/s");
  EXPECT_EQ(si(5.93e8), "593 M");
  EXPECT_EQ(si(19250, "GB/s"), "19.2 TB/s");  // the unit's own prefix combines
  EXPECT_EQ(si(184.8, "GFLOP/s"), "185 GFLOP/s");
  EXPECT_EQ(si(0.005, "s"), "5 ms");
  EXPECT_EQ(si(2.5e-6, "s"), "2.5 µs");
  EXPECT_EQ(si(999.96e3, "images/s"), "1 M images/s");  // rounding up crosses a prefix
  EXPECT_EQ(si(0.5, "s"), "0.5 s");
  EXPECT_EQ(si(std::nullopt, "s"), "");
}

TEST(FigureText, ARangeSharesItsMediansPrefix) {
  EXPECT_EQ(si_spread(stats(4.44e8, 4.08e8, 4.80e8), "points/s"), "444 M points/s (408–480 M)");
  EXPECT_EQ(si_spread(stats(1.9e4, 1.8e4, 2.0e4), "GB/s"), "19 TB/s (18–20 TB/s)");
  EXPECT_EQ(si_spread(stats(9.9e5, 9.0e5, 1.2e6), "points/s"), "990 k points/s (900 k points/s–1.2 M points/s)");
  EXPECT_EQ(si_spread(stats(12, 11, 13), "images/s"), "12 images/s (11–13)");
}

TEST(FigureText, SmallCostsArePerAPowerOfAThousandRuns) {
  EXPECT_EQ(money_per(4.85e-6, "run", "runs"), "$4.85 per million runs");
  EXPECT_EQ(money_per(1.18e-5, "run", "runs"), "$11.8 per million runs");
  EXPECT_EQ(money_per(0.25, "run", "runs"), "$0.25 per run");
  EXPECT_EQ(money_per(3e-4, "run", "runs"), "$0.3 per thousand runs");
  EXPECT_EQ(money_per(std::nullopt, "run", "runs"), "");
}

TEST(FigureText, RatiosShowTheirIntervalAndTies) {
  EXPECT_EQ(ratio_text(Ratio{1.39, 1.30, 1.48, false}, 3), "1.39x [1.30x, 1.48x]");
  EXPECT_EQ(ratio_text(Ratio{1.03, 0.97, 1.10, true}, 3), "tie: 1.03x [0.97x, 1.10x]");
  EXPECT_EQ(ratio_text(Ratio{250, 200, 300, false}, 3), "250x [200x, 300x]");
}

}  // namespace
}  // namespace perfzero::report
