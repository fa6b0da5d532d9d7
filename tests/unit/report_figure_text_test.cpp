// How the report's figures read: SI prefixes, costs per a power of 1000 runs, ratios with their
// intervals (issue 19, item 7: "4.44e+08" and "$4.85e-06" are not for people).
#include "fleet_report/figure_text.hpp"

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::fleet_report::report_figure_text_test {
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
  EXPECT_EQ(si(0.5, "s"), "500 ms");                    // a glued unit takes its prefix below 1
  EXPECT_EQ(si(0.05), "0.05");                          // a count does not: "50 m" would be odd
  EXPECT_EQ(si(1500, "points/s"), "1500 points/s");     // not 1.5e+03
  EXPECT_EQ(si(0.0123), "0.0123");
  EXPECT_EQ(si(std::nullopt, "s"), "");
}

TEST(FigureText, ARangeSharesItsMediansPrefix) {
  EXPECT_EQ(si_spread(stats(4.44e8, 4.08e8, 4.80e8), "points/s"), "444 M points/s (408–480 M)");
  EXPECT_EQ(si_spread(stats(1.9e4, 1.8e4, 2.0e4), "GB/s"), "19 TB/s (18–20 TB/s)");
  // The range is written at the median's prefix, even where its ends would read better at another.
  EXPECT_EQ(si_spread(stats(9.9e5, 9.0e5, 1.2e6), "points/s"), "990 k points/s (900–1200 k)");
  EXPECT_EQ(si_spread(stats(0.00434, 0.00368, 0.0102), "s"), "4.34 ms (3.68–10.2 ms)");
  EXPECT_EQ(si_spread(stats(12, 11, 13), "images/s"), "12 images/s (11–13)");
}

TEST(FigureText, AxisTicksShareThePrefixOfTheLargest) {
  EXPECT_EQ(si_ticks({0, 0.002, 0.004, 0.006, 0.008, 0.01}, "s"),
            (std::vector<std::string>{"0", "2 ms", "4 ms", "6 ms", "8 ms", "10 ms"}));
  EXPECT_EQ(si_ticks({0, 2e8, 4e8, 6e8}, ""), (std::vector<std::string>{"0", "200 M", "400 M", "600 M"}));
  EXPECT_EQ(si_ticks({25, 30, 35}, ""), (std::vector<std::string>{"25", "30", "35"}));
  EXPECT_EQ(si_ticks({0.1035, 0.104, 0.1045}, "s"), (std::vector<std::string>{"103.5 ms", "104 ms", "104.5 ms"}));
}

TEST(FigureText, SmallCostsArePerAPowerOfAThousandRuns) {
  EXPECT_EQ(money_per(4.85e-6, "run", "runs"), "$4.85 per million runs");
  EXPECT_EQ(money_per(1.18e-5, "run", "runs"), "$11.8 per million runs");
  EXPECT_EQ(money_per(0.25, "run", "runs"), "$0.25 per run");
  EXPECT_EQ(money_per(3e-4, "run", "runs"), "$0.3 per thousand runs");
  EXPECT_EQ(money_per(std::nullopt, "run", "runs"), "");
}

TEST(FigureText, RatiosShowTheirIntervalAndTies) {
  EXPECT_EQ(ratio_text(Ratio{1.39, 1.30, 1.48, false, 0}, 3), "1.39x [1.30x, 1.48x]");
  EXPECT_EQ(ratio_text(Ratio{1.03, 0.97, 1.10, true, 0}, 3), "tie: 1.03x [0.97x, 1.10x]");
  EXPECT_EQ(ratio_text(Ratio{250, 200, 300, false, 0}, 3), "250x [200x, 300x]");
  // The end of an interval that excludes 1 by a hair does not read as 1.00x.
  EXPECT_EQ(ratio_text(Ratio{1.13, 1.003, 1.27, false, 0}, 3), "1.13x [1.003x, 1.27x]");
}

}  // namespace
}  // namespace perfzero::fleet_report::report_figure_text_test
