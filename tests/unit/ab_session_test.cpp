// `perfzero ab`'s session (ab/ab_session.hpp) against a fake engine (fake_engine.hpp): the pairs'
// order, the stop rule (a case closes once every gated metric is decided, at a planned look), a side
// that never succeeds, and the budget, decided by the session alone on real run directories.
#include "ab/ab_session.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "fake_engine.hpp"
#include "temp_dir.hpp"

namespace perfzero::ab::ab_session_test {
namespace {

using testing::TempDir;
namespace fake_engine = perfzero::testing::fake_engine;
using fake_engine::exited;
using fake_engine::Seen;

bool is_candidate(const std::filesystem::path& trial_dir) {
  return trial_dir.parent_path().parent_path().filename() == "candidate";
}

AbSide side(const TempDir& dir, const std::string& role) {
  AbSide s;
  s.role = role;
  s.what = role == "baseline" ? "/bin/true" : "/bin/true --new";
  s.paths.launcher = PERFZERO_LAUNCH_BINARY;
  s.plan = {fake_engine::command_case("cmd", 30, 1)};
  s.run_dir = dir.path() / "ab" / role;
  return s;
}

cli::AbOptions options(int max_pairs) {
  cli::AbOptions o;
  o.max_pairs = max_pairs;
  o.warmup_trials = 1;
  o.output_dir = "unused";
  return o;
}

// Small deterministic noise: +-0.5 % around `base`, no two neighbours alike.
double around(double base, int i) { return base * (1.0 + 0.005 * ((i * 7) % 5 - 2) / 2.0); }

const compare::MetricComparison& wall_row(const AbOutcome& out) {
  const auto it = std::find_if(out.report.rows.begin(), out.report.rows.end(),
                               [](const compare::MetricComparison& r) { return r.metric == compare::kWallTimeRow; });
  if (it == out.report.rows.end()) throw std::runtime_error("no wall time row");
  return *it;
}

TEST(AbSession, PairsRunInAbbaOrderAfterTheWarmUpPair) {
  TempDir dir;
  std::vector<Seen> seen;
  int n = 0;
  const auto registry =
      fake_engine::fake_registry(seen, [&n](const runner::TrialRequest&) { return exited(0, around(0.05, ++n)); });
  AbSide a = side(dir, "baseline");
  AbSide b = side(dir, "candidate");
  const auto out = run_ab_session(options(4), a, b, "abba", registry);
  ASSERT_GE(seen.size(), 6U);
  std::vector<std::string> order;
  for (const auto& s : seen) order.push_back((is_candidate(s.trial_dir) ? "B:" : "A:") + s.what);
  const std::vector<std::string> want{"A:cmd/warmup_1", "B:cmd/warmup_1", "A:cmd/trial_1",
                                      "B:cmd/trial_1",  "B:cmd/trial_2",  "A:cmd/trial_2"};
  EXPECT_EQ(std::vector<std::string>(order.begin(), order.begin() + 6), want);
}

TEST(AbSession, AClearSlowdownStopsAtAnEarlyLookAsSlower) {
  TempDir dir;
  std::vector<Seen> seen;
  int n = 0;
  const auto registry = fake_engine::fake_registry(seen, [&n](const runner::TrialRequest& r) {
    return exited(0, around(is_candidate(r.trial_dir) ? 0.06 : 0.05, ++n));  // 20 % slower
  });
  AbSide a = side(dir, "baseline");
  AbSide b = side(dir, "candidate");
  const auto out = run_ab_session(options(30), a, b, "slower", registry);
  const auto& row = wall_row(out);
  EXPECT_EQ(row.verdict, compare::Verdict::slower) << row.reason;
  EXPECT_TRUE(out.report.regression());
  ASSERT_TRUE(row.pairs);
  EXPECT_LT(*row.pairs, 30) << "decided, yet it ran every pair";
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(2 * (1 + *row.pairs))) << "pairs ran after the case closed";
  EXPECT_NE(out.report.design.find("every gated metric decided"), std::string::npos) << out.report.design;
}

TEST(AbSession, NoChangeIsNotARegressionAndSaysItsPairs) {
  TempDir dir;
  std::vector<Seen> seen;
  int n = 0;
  const auto registry =
      fake_engine::fake_registry(seen, [&n](const runner::TrialRequest&) { return exited(0, around(0.05, ++n)); });
  AbSide a = side(dir, "baseline");
  AbSide b = side(dir, "candidate");
  const auto out = run_ab_session(options(20), a, b, "same", registry);
  const auto& row = wall_row(out);
  EXPECT_NE(row.verdict, compare::Verdict::slower) << row.reason;
  EXPECT_NE(row.verdict, compare::Verdict::faster) << row.reason;
  EXPECT_FALSE(out.report.regression());
}

TEST(AbSession, ASideThatNeverSucceedsClosesTheCaseAsMissingAfterThreeTries) {
  TempDir dir;
  std::vector<Seen> seen;
  const auto registry = fake_engine::fake_registry(
      seen, [](const runner::TrialRequest& r) { return exited(is_candidate(r.trial_dir) ? 1 : 0, 0.05); });
  AbSide a = side(dir, "baseline");
  AbSide b = side(dir, "candidate");
  const auto out = run_ab_session(options(30), a, b, "failing", registry);
  ASSERT_EQ(out.report.rows.size(), 1U);
  EXPECT_EQ(out.report.rows[0].verdict, compare::Verdict::missing);
  EXPECT_NE(out.report.rows[0].reason.find("no candidate trial succeeded in 3"), std::string::npos)
      << out.report.rows[0].reason;
  EXPECT_EQ(seen.size(), 2U * (1 + 3)) << "pairs ran after the case was given up";
}

TEST(AbSession, TheBudgetStopsTheTrialInFlightAndNoPairStartsAfterIt) {
  TempDir dir;
  std::vector<Seen> seen;
  // Every trial would last 10 s: the engine ends it at its time-out, as a method that would not end.
  const auto registry = fake_engine::fake_registry(seen, [](const runner::TrialRequest& r) {
    const auto wait = r.timeout.count() > 0 ? std::min<std::chrono::milliseconds>(r.timeout, std::chrono::seconds(10))
                                            : std::chrono::milliseconds(std::chrono::seconds(10));
    std::this_thread::sleep_for(wait);
    runner::TrialExecution e;
    e.end = runner::ProcessEnd::timed_out;
    e.wall_seconds = std::chrono::duration<double>(wait).count();
    return e;
  });
  AbSide a = side(dir, "baseline");
  AbSide b = side(dir, "candidate");
  auto o = options(30);
  o.max_time = std::chrono::milliseconds(400);
  const auto started = std::chrono::steady_clock::now();
  const auto out = run_ab_session(o, a, b, "budget", registry);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  ASSERT_EQ(seen.size(), 1U) << "the baseline's warm-up took the whole budget";
  EXPECT_LE(seen[0].timeout, std::chrono::milliseconds(400));
  EXPECT_EQ(seen[0].timeout_cause.rfind("--max_time", 0), 0U) << seen[0].timeout_cause;
  EXPECT_NE(out.report.design.find("spent in the warm-ups"), std::string::npos) << out.report.design;
  EXPECT_FALSE(out.report.regression());
}

}  // namespace
}  // namespace perfzero::ab::ab_session_test
