// trials: auto (results/auto_trials.hpp): the noise of the median and when a case has enough.
#include "results/auto_trials.hpp"

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::results::auto_trials_test {
namespace {

// The distribution-free 95 % interval of the median from order statistics: for n = 6 it is
// [min, max] (coverage 1 - 2/64), for n = 10 [x(2), x(9)] (1 - 2 * 11/1024).
TEST(AutoTrials, MedianNoiseIsHalfTheOrderStatisticIntervalOverTheMedian) {
  EXPECT_FALSE(median_noise({1, 2, 3, 4, 5}).has_value());
  EXPECT_DOUBLE_EQ(*median_noise({10, 11, 12, 13, 14, 15}), (15.0 - 10.0) / 2 / 12.5);
  EXPECT_DOUBLE_EQ(*median_noise({1, 2, 3, 4, 5, 6, 7, 8, 9, 100}), (9.0 - 2.0) / 2 / 5.5);
  EXPECT_FALSE(median_noise({0, 0, 0, 0, 0, 0}).has_value());
}

Case case_with(const std::vector<double>& walls, double seconds_each = 0.2) {
  Case c;
  c.name = "m";
  int n = 0;
  for (double w : walls) {
    Trial t;
    t.number = ++n;
    t.outcome = Outcome::succeeded;
    t.wall_time = w;
    t.harness_seconds = seconds_each;
    c.trials.push_back(t);
  }
  return c;
}

TEST(AutoTrials, EnoughOnceTheNoiseIsLowAfterTheMinimums) {
  AutoTrials a;  // 5 trials, 0.5 s, 2 %
  EXPECT_FALSE(auto_state(case_with({1, 1, 1, 1, 1}), a).done) << "fewer than 6: no interval yet";
  const AutoState quiet = auto_state(case_with({1.00, 1.01, 0.99, 1.00, 1.01, 1.00}), a);
  EXPECT_TRUE(quiet.done);
  EXPECT_NE(quiet.reason.find("noise 1.00% <= 2.00%"), std::string::npos) << quiet.reason;
  EXPECT_EQ(quiet.metric, "wall_time");
  // The same values in less than min_time: not yet.
  EXPECT_FALSE(auto_state(case_with({1.00, 1.01, 0.99, 1.00, 1.01, 1.00}, 0.05), a).done);
  // Noisy values run on to max_trials.
  std::vector<double> noisy;
  for (int i = 0; i < 50; ++i) noisy.push_back(i % 2 == 0 ? 1.0 : 2.0);
  const AutoState capped = auto_state(case_with(noisy), a);
  EXPECT_TRUE(capped.done);
  EXPECT_NE(capped.reason.find("max_trials 50 reached"), std::string::npos) << capped.reason;
  a.max_seconds = 1.0;
  const AutoState timed = auto_state(case_with({1, 2, 1, 2, 1}), a);
  EXPECT_TRUE(timed.done);
  EXPECT_NE(timed.reason.find("max_time"), std::string::npos) << timed.reason;
}

TEST(AutoTrials, DisturbedAndFailedTrialsAreNotMeasurementsButCountAgainstTheLimits) {
  AutoTrials a;
  Case c = case_with({1.00, 1.01, 0.99, 1.00, 1.01, 1.00});
  c.trials[0].flags.push_back("host_busy");
  c.trials[1].outcome = Outcome::failed;
  const AutoState s = auto_state(c, a);
  EXPECT_EQ(s.measured, 4);
  EXPECT_EQ(s.run, 6);
  EXPECT_FALSE(s.done);
}

TEST(AutoTrials, TheMainRateMetricIsWhatTheNoiseIsOf) {
  Case c = case_with({1, 5, 1, 5, 1, 5});
  for (auto& t : c.trials) {
    MetricValue m;
    m.name = "points_per_second";
    m.value = 100.0 + t.number * 0.01;
    m.unit = "points/s";
    t.metrics.push_back(m);
  }
  const AutoState s = auto_state(c, AutoTrials{});
  EXPECT_EQ(s.metric, "points_per_second");
  EXPECT_TRUE(s.done) << s.reason;
}

}  // namespace
}  // namespace perfzero::results::auto_trials_test
