// history changes --fail_on_change's gate (history/changes_gate.cpp) and the one rule it shares with
// compare and ab (compare::decide): a slower latest change fails, what cannot be judged is undecided.
#include "history/changes_gate.hpp"

#include <gtest/gtest.h>

namespace perfzero::history::history_changes_gate_test {
namespace {

history::Series series(std::string metric, std::size_t points) {
  history::Series s;
  s.metric = std::move(metric);
  s.direction = Direction::lower_is_better;
  s.points.resize(points);
  return s;
}

SeriesChange change(const history::Series& s, std::size_t index, compare::Verdict v) {
  SeriesChange c;
  c.series = &s;
  c.point.index = index;
  c.verdict = v;
  return c;
}

TEST(HistoryChangesGate, OnlyTheLatestChangeOfAGatedSeriesCounts) {
  const std::vector<history::Series> all = {series("latency", 12), series("other", 12), series("task_clock", 12)};
  const compare::ChangePointSettings settings;
  // Slower, then faster again: recovered, it passes; a counter's slowdown is shown, not gated.
  std::vector<SeriesChange> changes = {change(all[0], 3, compare::Verdict::slower),
                                       change(all[0], 8, compare::Verdict::faster),
                                       change(all[2], 6, compare::Verdict::slower)};
  auto g = changes_gate(changes, all, {}, settings, "", {});
  EXPECT_EQ(g.result.status, compare::GateStatus::passed);
  EXPECT_EQ(g.result.exit_status, 0);
  // --metric naming the counter gates it.
  g = changes_gate(changes, all, {}, settings, "task_clock", {});
  EXPECT_EQ(g.result.exit_status, 1);
  changes.push_back(change(all[1], 9, compare::Verdict::slower));
  g = changes_gate(changes, all, {}, settings, "", {true, true});
  EXPECT_EQ(g.result.slower, 1);
  EXPECT_EQ(g.result.exit_status, 1) << "--pass_on never accepts a slowdown";
  EXPECT_NE(changes_gate_line(g).find("gate: failed (exit 1): 1 series slower"), std::string::npos)
      << changes_gate_line(g);
}

TEST(HistoryChangesGate, EmptiedShortOrNoSeriesAreUndecidedUnlessAccepted) {
  const compare::ChangePointSettings settings;
  history::SeriesLeftOut left_out;
  left_out.emptied = {{"m", "latency"}, {"m", "context_switches"}};
  auto g = changes_gate({}, {}, left_out, settings, "", {});
  EXPECT_EQ(g.emptied, 1) << "the counter's series is not gated";
  EXPECT_EQ(g.result.exit_status, 5);
  EXPECT_NE(changes_gate_line(g).find("--pass_on=undecided accepts them"), std::string::npos);
  g = changes_gate({}, {}, left_out, settings, "", {true, false});
  EXPECT_EQ(g.result.exit_status, 0);
  EXPECT_EQ(g.result.undecided, 1);
  EXPECT_EQ(changes_gate_json(g).at("status"), "passed");
  const std::vector<history::Series> short_one = {series("latency", 3)};
  g = changes_gate({}, short_one, {}, settings, "", {});
  EXPECT_EQ(g.too_short, 1);
  EXPECT_EQ(g.result.exit_status, 5);
  g = changes_gate({}, {}, {}, settings, "", {});
  EXPECT_TRUE(g.no_series);
  EXPECT_EQ(g.result.exit_status, 5);
  EXPECT_EQ(changes_gate({}, {}, {}, settings, "", {false, true}).result.exit_status, 5)
      << "missing does not accept what is undecided";
}

TEST(CompareDecide, SlowerBeatsUndecidedAndPassOnAcceptsOnlyItsKind) {
  compare::GateResult counts;
  counts.undecided = 2;
  EXPECT_EQ(compare::decide(counts, {}).exit_status, 5);
  counts.no_measurement = 1;
  EXPECT_EQ(compare::decide(counts, {}).exit_status, 1);
  EXPECT_EQ(compare::decide(counts, {false, true}).exit_status, 5);
  EXPECT_EQ(compare::decide(counts, {true, true}).exit_status, 0);
  counts.slower = 1;
  EXPECT_EQ(compare::decide(counts, {true, true}).status, compare::GateStatus::failed);
}

}  // namespace
}  // namespace perfzero::history::history_changes_gate_test
