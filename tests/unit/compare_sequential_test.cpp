// The sequential design of `perfzero ab` (compare/sequential.hpp): the boundaries spend exactly
// the planned alpha, checked against an independent Monte Carlo of the null, and the whole
// procedure's false-alarm rate stays under alpha on heavy-tailed noise.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "compare/paired_verdict.hpp"
#include "compare/sequential.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::compare::compare_sequential_test {
namespace {

TEST(Sequential, LooksStartAtTenGrowByAQuarterAndEndAtTheBudget) {
  const LookPlan plan = plan_looks(100, 0.05);
  EXPECT_EQ(plan.pairs.front(), 10);
  EXPECT_EQ(plan.pairs.back(), 100);
  for (std::size_t k = 1; k < plan.pairs.size(); ++k) EXPECT_GT(plan.pairs[k], plan.pairs[k - 1]);
  EXPECT_NEAR(plan.spent.back(), 0.05, 1e-12);
  const LookPlan tiny = plan_looks(4, 0.05);
  ASSERT_EQ(tiny.pairs.size(), 1U);
  EXPECT_EQ(tiny.pairs.front(), 4);
}

TEST(Sequential, TheFirstBoundaryIsTheNormalQuantileOfItsShare) {
  const LookPlan plan = plan_looks(100, 0.05);
  const double share = alpha_spent(0.1, 0.05);
  EXPECT_NEAR(plan.nominal_alpha.front(), share, 1e-9);
}

// A Brownian motion observed at the looks crosses the boundaries with the planned probabilities:
// simulated here with 400,000 paths, independently of the numerical integration.
TEST(Sequential, BoundariesSpendThePlannedAlphaUnderTheNull) {
  const LookPlan plan = plan_looks(100, 0.05);
  std::mt19937_64 rng(7);
  std::normal_distribution<double> step(0, 1);
  const int paths = 400000;
  std::vector<int> crossed(plan.pairs.size(), 0);
  for (int p = 0; p < paths; ++p) {
    double s = 0;
    double t_before = 0;
    for (std::size_t k = 0; k < plan.pairs.size(); ++k) {
      const double t = plan.pairs[k] / 100.0;
      s += step(rng) * std::sqrt(t - t_before);
      t_before = t;
      if (std::fabs(s / std::sqrt(t)) > plan.boundary[k]) {
        ++crossed[k];
        break;
      }
    }
  }
  double cumulative = 0;
  for (std::size_t k = 0; k < plan.pairs.size(); ++k) {
    cumulative += static_cast<double>(crossed[k]) / paths;
    // Three standard errors of a proportion near 0.05 with 400,000 paths: about 0.001.
    EXPECT_NEAR(cumulative, plan.spent[k], 0.0012) << "look " << k << " at " << plan.pairs[k] << " pairs";
  }
}

TEST(Sequential, ALastLookSpendsWhatIsLeft) {
  const LookPlan plan = plan_looks(100, 0.05);
  // After two planned looks, a time budget ends the session at 14 pairs.
  const double level = last_look_alpha(plan, 2, 14);
  EXPECT_GT(level, plan.nominal_alpha[2]);  // more is left than look 3 would have spent alone
  EXPECT_LT(level, 0.05);
}

// The whole procedure, as `ab` runs it, on A/A pairs whose differences are symmetric but heavy-tailed
// (a load spike now and then on either side): slower or faster at most alpha of the time.
TEST(Sequential, AnAaSessionRaisesAFalseAlarmAtMostAlphaOfTheTime) {
  const LookPlan plan = plan_looks(60, 0.05);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0, 0.03);
  std::cauchy_distribution<double> spike(0, 0.05);
  std::bernoulli_distribution spiky(0.15);
  Settings settings;
  settings.min_change = 0.02;
  const int sessions = 1500;
  int alarms = 0;
  for (int s = 0; s < sessions; ++s) {
    PairedSeries pairs;
    std::size_t look = 0;
    for (int n = 1; n <= plan.max_pairs && look < plan.pairs.size(); ++n) {
      const double a = std::exp(noise(rng) + (spiky(rng) ? std::fabs(spike(rng)) : 0.0));
      const double b = std::exp(noise(rng) + (spiky(rng) ? std::fabs(spike(rng)) : 0.0));
      pairs.baseline.push_back(a);
      pairs.candidate.push_back(b);
      pairs.disturbed.push_back(false);
      if (n != plan.pairs[look]) continue;
      MetricComparison m;
      m.direction = Direction::lower_is_better;
      const bool decided = judge_pairs(m, pairs, plan.nominal_alpha[look], settings, look + 1 == plan.pairs.size());
      ++look;
      if (decided) {
        if (m.verdict == Verdict::slower || m.verdict == Verdict::faster) ++alarms;
        break;
      }
    }
  }
  const double rate = static_cast<double>(alarms) / sessions;
  // alpha plus three standard errors (sqrt(0.05 * 0.95 / 1500) = 0.0056).
  EXPECT_LE(rate, 0.05 + 0.017) << alarms << " false alarms in " << sessions << " sessions";
}

// Issue 37: a planted 3 % change judged against the 5 % threshold, as `ab` runs it (looks at 10, 13,
// 16, ... pairs, stopping at the first decision). Stopping when the estimate looks large selects the
// draws that overstate it; the repeated confidence intervals cover the change at every look at once,
// so their lower end passes 5 % at most alpha / 2 of the time: "slower" at most alpha.
TEST(Sequential, APlantedThreePercentIsSlowerBeyondFivePercentAtMostAlphaOfTheTime) {
  const LookPlan plan = plan_looks(100, 0.05);
  std::mt19937_64 rng(37);
  std::normal_distribution<double> noise(0, 0.05);
  const Settings settings;
  const int sessions = 600;
  int slower = 0;
  int early_estimates_past = 0;
  for (int s = 0; s < sessions; ++s) {
    PairedSeries pairs;
    std::size_t look = 0;
    for (int n = 1; n <= plan.max_pairs && look < plan.pairs.size(); ++n) {
      const double a = std::exp(noise(rng));
      pairs.baseline.push_back(a);
      pairs.candidate.push_back(a * 1.03 * std::exp(noise(rng)));
      pairs.disturbed.push_back(false);
      if (n != plan.pairs[look]) continue;
      MetricComparison m;
      m.direction = Direction::lower_is_better;
      const bool decided = judge_pairs(m, pairs, plan.nominal_alpha[look], settings, look + 1 == plan.pairs.size());
      if (look == 0 && m.change && *m.change >= settings.min_change) ++early_estimates_past;
      ++look;
      if (decided) {
        if (m.verdict == Verdict::slower) ++slower;
        break;
      }
    }
  }
  // The first look's estimate is past 5 % often (what the old rule called slower): the test can fail.
  EXPECT_GT(early_estimates_past, sessions / 10);
  // alpha plus three standard errors (sqrt(0.05 * 0.95 / 600) = 0.009).
  EXPECT_LE(static_cast<double>(slower) / sessions, 0.05 + 0.027) << slower << " of " << sessions;
}

}  // namespace
}  // namespace perfzero::compare::compare_sequential_test
