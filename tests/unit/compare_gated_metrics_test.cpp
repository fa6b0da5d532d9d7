// Which metrics gate (compare/gated_metrics.hpp): one answer for compare, compare --history and ab.
#include <gtest/gtest.h>

#include <regex>

#include "ab/ab_pairs.hpp"
#include "compare/compare_runs.hpp"
#include "compare/gated_metrics.hpp"

namespace perfzero::compare::gated_metrics_test {
namespace {

results::Trial trial(int number, double wall, std::optional<double> user, double system = 0.001) {
  results::Trial t;
  t.number = number;
  t.outcome = Outcome::succeeded;
  t.wall_time = wall;
  if (user) {
    t.process.detail["kernel_rusage"] = {{"user_cpu_seconds", *user}, {"system_cpu_seconds", system}};
  } else {
    t.process.detail["kernel_rusage"] = nullptr;  // the launcher was lost: no accounting
  }
  t.metrics.push_back(
      {"points_per_second", 100.0 / wall, "points/s", std::nullopt, std::nullopt, Direction::higher_is_better});
  t.metrics.push_back({"task_clock", wall, "s", std::nullopt, std::nullopt, Direction::unspecified});
  return t;
}

results::Run run_of(std::vector<results::Trial> trials) {
  results::Run r;
  results::Case c;
  c.name = "fam.A.m";
  c.trials = std::move(trials);
  r.cases.push_back(std::move(c));
  return r;
}

const MetricComparison* row_of(const RunComparison& r, std::string_view metric) {
  for (const auto& row : r.rows) {
    if (row.metric == metric) return &row;
  }
  return nullptr;
}

TEST(GatedMetrics, WallTimeTreeCpuAndDeclaredMetricsGateByDefault) {
  EXPECT_TRUE(gated_by_default(kWallTimeRow, Direction::unspecified));
  EXPECT_TRUE(gated_by_default(kTreeCpuRow, Direction::unspecified));
  EXPECT_TRUE(gated_by_default("points_per_second", Direction::higher_is_better));
  EXPECT_TRUE(gated_by_default("latency_us", Direction::lower_is_better));
  EXPECT_FALSE(gated_by_default("threads_used", Direction::unspecified)) << "no direction: never slower";
  EXPECT_FALSE(gated_by_default("task_clock", Direction::lower_is_better)) << "a counter";
  for (const char* half : {"user_cpu_seconds", "system_cpu_seconds", "max_rss"}) {
    EXPECT_FALSE(gated_by_default(half, Direction::lower_is_better)) << half << ": the tree's CPU time gates the sum";
  }
}

TEST(GatedMetrics, AGivenPatternReplacesTheDefault) {
  EXPECT_TRUE(is_gated("cpu_seconds$", "user_cpu_seconds", Direction::lower_is_better));
  EXPECT_FALSE(is_gated("cpu_seconds$", kWallTimeRow, Direction::lower_is_better));
  EXPECT_TRUE(is_gated("task", "task_clock", Direction::unspecified));
  EXPECT_THROW((void)is_gated("(", "x", Direction::unspecified), std::regex_error);
}

TEST(GatedMetrics, TheTreeCpuTimeIsTheKernelsUserPlusSystemOrAMetricOfThatName) {
  EXPECT_DOUBLE_EQ(*tree_cpu_seconds(trial(1, 0.1, 0.05, 0.01)), 0.06);
  EXPECT_FALSE(tree_cpu_seconds(trial(1, 0.1, std::nullopt)));
  results::Trial none;
  EXPECT_FALSE(tree_cpu_seconds(none)) << "no process detail at all";
  none.process.detail = {{"kernel_rusage", {{"user_cpu_seconds", "0.1"}, {"system_cpu_seconds", 0.1}}}};
  EXPECT_FALSE(tree_cpu_seconds(none)) << "a string is not a time";
  results::Trial from_history = trial(1, 0.1, 0.05);
  from_history.metrics.push_back({kTreeCpuRow, 0.5, "s", std::nullopt, std::nullopt, Direction::lower_is_better});
  EXPECT_DOUBLE_EQ(*tree_cpu_seconds(from_history), 0.5);
}

TEST(GatedMetrics, CompareRowsAndGatesTheTreeCpuTimeOfEveryMethod) {
  std::vector<results::Trial> base, cand;
  for (int i = 1; i <= 8; ++i) {
    base.push_back(trial(i, 0.100 + 0.0001 * i, 0.050 + 0.0001 * i));
    cand.push_back(trial(i, 0.100 + 0.0001 * i, 0.080 + 0.0001 * i));  // 60 % more CPU, same wall time
  }
  const RunComparison r = compare_runs(run_of(base), run_of(cand), Settings{});
  const auto* cpu = row_of(r, kTreeCpuRow);
  ASSERT_NE(cpu, nullptr);
  EXPECT_TRUE(cpu->gated);
  EXPECT_EQ(cpu->verdict, Verdict::slower);
  EXPECT_TRUE(r.regression());
  ASSERT_NE(row_of(r, "task_clock"), nullptr);
  EXPECT_FALSE(row_of(r, "task_clock")->gated);
  EXPECT_TRUE(row_of(r, "points_per_second")->gated);
}

TEST(GatedMetrics, TheCpuTimeOfATreeThatMostlyWaitedIsShownNotGated) {
  EXPECT_TRUE(tree_was_busy({0.05, 0.05}, {0.1, 0.1}));
  EXPECT_FALSE(tree_was_busy({0.003, 0.003}, {0.1, 0.1})) << "a sleep: 3 % of its wall time";
  EXPECT_FALSE(tree_was_busy({}, {0.1})) << "nothing measured";
  std::vector<results::Trial> base, cand, busy;
  for (int i = 1; i <= 8; ++i) {
    base.push_back(trial(i, 0.100, 0.002 + 0.0001 * i));
    cand.push_back(trial(i, 0.100, 0.003 + 0.0001 * i));
    busy.push_back(trial(i, 0.100, 0.060 + 0.0001 * i));  // the candidate now computes where it waited
  }
  const RunComparison idle = compare_runs(run_of(base), run_of(cand), Settings{});
  ASSERT_NE(row_of(idle, kTreeCpuRow), nullptr);
  EXPECT_FALSE(row_of(idle, kTreeCpuRow)->gated);
  EXPECT_FALSE(idle.regression());
  Settings named;
  named.metrics = "cpu_seconds";
  EXPECT_TRUE(row_of(compare_runs(run_of(base), run_of(cand), named), kTreeCpuRow)->gated) << "--metrics names it";
  const RunComparison woke = compare_runs(run_of(base), run_of(busy), Settings{});
  EXPECT_TRUE(row_of(woke, kTreeCpuRow)->gated);
  EXPECT_EQ(row_of(woke, kTreeCpuRow)->verdict, Verdict::slower);
  const auto pairs = ab::collect_pairs(run_of(base).cases[0], run_of(cand).cases[0]);
  EXPECT_FALSE(ab::is_gated("", pairs[1], pairs));
  const auto woke_pairs = ab::collect_pairs(run_of(base).cases[0], run_of(busy).cases[0]);
  EXPECT_TRUE(ab::is_gated("", woke_pairs[1], woke_pairs));
}

TEST(GatedMetrics, ASideWithoutTheKernelsAccountingHasNoCpuRowRatherThanAMissingOne) {
  std::vector<results::Trial> base, cand;
  for (int i = 1; i <= 5; ++i) {
    base.push_back(trial(i, 0.1, 0.05));
    cand.push_back(trial(i, 0.1, std::nullopt));
  }
  const RunComparison r = compare_runs(run_of(base), run_of(cand), Settings{});
  EXPECT_EQ(row_of(r, kTreeCpuRow), nullptr);
  EXPECT_NE(row_of(r, kWallTimeRow), nullptr);
}

TEST(GatedMetrics, AbPairsTheTreeCpuTimeAndGatesAsCompareDoes) {
  std::vector<results::Trial> base, cand;
  for (int i = 1; i <= 3; ++i) {
    base.push_back(trial(i, 0.1, 0.05));
    cand.push_back(trial(i, 0.1, 0.06));
  }
  const auto pairs = ab::collect_pairs(run_of(base).cases[0], run_of(cand).cases[0]);
  ASSERT_GE(pairs.size(), 2U);
  EXPECT_EQ(pairs[0].metric, kWallTimeRow);
  EXPECT_EQ(pairs[1].metric, kTreeCpuRow);
  EXPECT_EQ(pairs[1].series.candidate.size(), 3U);
  for (const auto& p : pairs) {
    EXPECT_EQ(ab::is_gated("", p, pairs), is_gated("", p.metric, p.direction)) << p.metric;
  }
  EXPECT_TRUE(ab::is_gated("", pairs[1], pairs));
}

}  // namespace
}  // namespace perfzero::compare::gated_metrics_test
