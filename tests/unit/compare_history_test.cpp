// `compare --history`: the z-score of a candidate against the history's per-run medians
// (docs/history.md), on runs built in memory.
#include <gtest/gtest.h>

#include "compare/history_compare.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::compare::compare_history_test {
namespace {

results::Run run_with(const std::string& id, const std::vector<double>& values,
                      Direction direction = Direction::lower_is_better) {
  results::Run run;
  run.info.execution_id = id;
  results::Case c;
  c.name = "m";
  for (double v : values) {
    results::Trial t;
    t.outcome = Outcome::succeeded;
    t.wall_time = 1.0;
    t.metrics.push_back({"time", v, "ms", std::nullopt, std::nullopt, direction});
    c.trials.push_back(t);
  }
  run.cases.push_back(c);
  return run;
}

// Ten runs whose medians wander by about 1 % around 100.
std::vector<results::Run> history(Direction direction = Direction::lower_is_better) {
  std::vector<results::Run> runs;
  for (int i = 0; i < 10; ++i) {
    const double centre = 100.0 + ((i * 7) % 5 - 2) * 0.5;
    std::string name = "h";  // appended: GCC 12's -Wrestrict misfires on "h" + std::to_string(i) at -O3
    name += std::to_string(i);
    runs.push_back(run_with(name, {centre - 0.2, centre, centre + 0.2}, direction));
  }
  return runs;
}

const MetricComparison& row(const RunComparison& r, const std::string& metric) {
  for (const auto& m : r.rows) {
    if (m.metric == metric) return m;
  }
  throw std::runtime_error("no row " + metric);
}

TEST(HistoryCompare, AStepChangeIsFlaggedByItsZScore) {
  const RunComparison r =
      compare_with_history(run_medians(history(), false), run_with("c", {110, 110.2, 109.8}), {}, 5.0);
  const auto& m = row(r, "time");
  EXPECT_EQ(m.verdict, Verdict::slower) << m.reason;
  EXPECT_GT(*m.z_score, 5.0);
  EXPECT_NEAR(*m.change, 0.10, 0.01);
  EXPECT_EQ(m.baseline.values.size(), 10U);  // one median per history run
  EXPECT_TRUE(r.regression());
  EXPECT_EQ(row(r, "wall_time").verdict, Verdict::same);
}

TEST(HistoryCompare, WithinTheHistorysSpreadIsSame) {
  const RunComparison r =
      compare_with_history(run_medians(history(), false), run_with("c", {100.5, 100.7, 100.3}), {}, 5.0);
  EXPECT_EQ(row(r, "time").verdict, Verdict::same);
  EXPECT_LT(std::fabs(*row(r, "time").z_score), 5.0);
  EXPECT_FALSE(r.regression());
}

TEST(HistoryCompare, DirectionAndMinimumChangeApply) {
  const RunComparison faster = compare_with_history(run_medians(history(Direction::higher_is_better), false),
                                                    run_with("c", {110}, Direction::higher_is_better), {}, 5.0);
  EXPECT_EQ(row(faster, "time").verdict, Verdict::faster);
  // Far outside a very quiet history, but only 2 %: below the minimum change that matters.
  std::vector<results::Run> quiet;
  for (int i = 0; i < 5; ++i) {
    std::string name = "q";
    name += std::to_string(i);
    quiet.push_back(run_with(name, {100.0 + i * 0.01}));
  }
  const RunComparison small = compare_with_history(run_medians(quiet, false), run_with("c", {102}), {}, 5.0);
  EXPECT_EQ(row(small, "time").verdict, Verdict::below_threshold);
  EXPECT_NE(row(small, "time").reason.find("smaller than 5.0%"), std::string::npos) << row(small, "time").reason;
  EXPECT_FALSE(small.regression());
}

TEST(HistoryCompare, TooShortAHistoryOrNoneAtAll) {
  const std::vector<results::Run> two{run_with("a", {100}), run_with("b", {101})};
  EXPECT_EQ(row(compare_with_history(run_medians(two, false), run_with("c", {150}), {}, 5.0), "time").verdict,
            Verdict::too_noisy);
  const RunComparison none = compare_with_history({}, run_with("c", {150}), {}, 5.0);
  EXPECT_EQ(row(none, "time").verdict, Verdict::missing);
  EXPECT_EQ(row(none, "time").reason, "not in the history");
}

}  // namespace
}  // namespace perfzero::compare::compare_history_test
