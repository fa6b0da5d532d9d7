// Fastest, cheapest and speedups are named only when the trials tell them apart (issue 19, item 5):
// five runs of one machine labelled as five shapes must read as a tie, and disturbed trials stay
// out of every figure unless asked for.
#include "fleet_report/rankings.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "fleet_report/figure_text.hpp"
#include "fleet_report/report_builder.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::fleet_report::report_rankings_test {
namespace {

using perfzero::testing::TempDir;

results::Trial trial(double rate, std::vector<std::string> flags = {}) {
  results::Trial t;
  t.wall_time = 1;
  t.outcome = Outcome::succeeded;
  t.metrics.push_back({"points_per_second", rate, "points/s", std::nullopt, std::nullopt});
  t.flags = std::move(flags);
  return t;
}

results::Run run_on(const std::string& shape, std::vector<results::Trial> trials) {
  results::Run run;
  run.info.instance_type = shape;
  run.info.system = {{"architecture", "x86_64"}, {"effective_vcpus", 2}};
  results::Case c;
  c.name = "cube";
  c.trials = std::move(trials);
  run.cases.push_back(std::move(c));
  return run;
}

// `n` trials around `center`, spread +-`spread` (relative), the same pattern for every shape.
std::vector<results::Trial> noisy(double center, double spread, int n = 10) {
  std::vector<results::Trial> out;
  for (int i = 0; i < n; ++i) out.push_back(trial(center * (1 + spread * ((i * 3 % n) / (n - 1.0) - 0.5) * 2)));
  return out;
}

pricing::Catalog catalog(const TempDir& dir) {
  std::string yaml = "catalog_version: 1\nshapes:\n";
  for (const auto& [name, price] :
       std::vector<std::pair<std::string, double>>{{"a", 0.10}, {"b", 0.11}, {"c", 0.20}, {"d", 0.40}, {"e", 0.30}}) {
    yaml += fmt::format(
        "  - {{provider: aws, shape: {}, arch: x86_64, vcpus: 2, usd_per_hour: {}, source: "
        "\"https://example.org/p\", date: 2026-06-01}}\n",
        name, price);
  }
  return pricing::load_catalog(dir.write("prices.yaml", yaml));
}

// The trials' bootstrap alone: most tests here are about it, not about the between-run floor.
RankSettings bootstrap_only() {
  RankSettings s;
  s.run_noise = 0.0;
  return s;
}

FleetReport build(const std::vector<results::Run>& runs, const std::string& baseline = "",
                  RankSettings ranking = bootstrap_only()) {
  static TempDir dir;
  static const pricing::Catalog prices = catalog(dir);
  ReportBuilder builder({&prices, baseline, "2026-11-22", 365, ranking});
  for (std::size_t i = 0; i < runs.size(); ++i) builder.add_run("run" + std::to_string(i), runs[i]);
  return builder.finish({});
}

std::size_t index_of(const FleetReport& r, const std::string& key) {
  for (std::size_t i = 0; i < r.configurations.size(); ++i) {
    if (r.configurations[i].key == key) return i;
  }
  throw std::runtime_error("no configuration " + key);
}

TEST(ReportRankings, FiveRunsOfOneMachineUnderFiveLabelsAreATieNotAWinner) {
  // The report: one machine, five labels, ranges that overlap; it named one "fastest".
  const FleetReport r = build({run_on("a", noisy(100, 0.2)), run_on("b", noisy(103, 0.2)), run_on("c", noisy(97, 0.2)),
                               run_on("d", noisy(101, 0.2)), run_on("e", noisy(99, 0.2))});
  const MethodRow& row = r.methods.front();
  EXPECT_FALSE(row.fastest);
  EXPECT_FALSE(row.speed.decided);
  ASSERT_TRUE(row.speed.leader && row.speed.ratio && row.speed.ratio->low);
  EXPECT_EQ(r.configurations[*row.speed.leader].key, "b");
  EXPECT_LT(*row.speed.ratio->low, 1.0);
  EXPECT_GT(*row.speed.ratio->high, 1.0);
  EXPECT_EQ(fastest_summary(row, r).rfind("tie: ", 0), 0U) << fastest_summary(row, r);
  // a costs least per point, but b (10% dearer, 3% faster) costs only 7% more: within the noise,
  // so the cheapest is a tie too.
  EXPECT_EQ(r.configurations[*row.cost.leader].key, "a");
  EXPECT_FALSE(row.cheapest);
}

TEST(ReportRankings, AClearWinnerIsNamedWithItsInterval) {
  const FleetReport r =
      build({run_on("a", noisy(100, 0.1)), run_on("c", noisy(140, 0.1)), run_on("d", noisy(60, 0.1))});
  const MethodRow& row = r.methods.front();
  ASSERT_TRUE(row.fastest);
  EXPECT_EQ(r.configurations[*row.fastest].key, "c");
  EXPECT_EQ(r.configurations[*row.speed.against].key, "a");  // the runner-up
  EXPECT_NEAR(row.speed.ratio->value, 1.4, 0.02);
  EXPECT_GT(*row.speed.ratio->low, 1.2);
  EXPECT_LT(*row.speed.ratio->high, 1.6);
  EXPECT_FALSE(row.speed.ratio->tie);
  EXPECT_EQ(speed_mark(row, index_of(r, "c")), "fastest");
  EXPECT_EQ(speed_mark(row, index_of(r, "a")), "");
  // Cost per point: a 0.10/100, c 0.20/140, d 0.40/60: a is cheapest, c costs 1.43x as much.
  ASSERT_TRUE(row.cheapest);
  EXPECT_EQ(r.configurations[*row.cheapest].key, "a");
  EXPECT_EQ(r.configurations[*row.cost.against].key, "c");
  EXPECT_NEAR(row.cost.ratio->value, (0.20 / 140) / (0.10 / 100), 1e-9);
  // The cost interval is the speed interval of a over c scaled by the price ratio c / a.
  const Ratio speeds = speed_ratio(row, index_of(r, "a"), index_of(r, "c"), 1.0, r.settings);
  EXPECT_NEAR(*row.cost.ratio->low, 2.0 * *speeds.low, 1e-12);
  EXPECT_NEAR(*row.cost.ratio->high, 2.0 * *speeds.high, 1e-12);
}

TEST(ReportRankings, AChangeUnderMinChangeIsATieEvenWhenEveryTrialIsApart) {
  // Constant trials 3% apart: the interval is exactly [1.03, 1.03], which excludes 1.
  const auto constant = [](double rate) { return std::vector<results::Trial>(5, trial(rate)); };
  const FleetReport five = build({run_on("a", constant(100)), run_on("c", constant(103))});
  EXPECT_FALSE(five.methods.front().fastest);
  EXPECT_TRUE(five.methods.front().speed.ratio->tie);
  EXPECT_EQ(ratio_text(*five.methods.front().speed.ratio, 3), "tie: 1.03x [1.03x, 1.03x]");
  RankSettings two_percent = bootstrap_only();
  two_percent.min_change = 0.02;
  const FleetReport two = build({run_on("a", constant(100)), run_on("c", constant(103))}, "", two_percent);
  ASSERT_TRUE(two.methods.front().fastest);
  EXPECT_EQ(two.configurations[*two.methods.front().fastest].key, "c");
}

TEST(ReportRankings, TooFewTrialsGiveNoIntervalAndNoWinner) {
  const FleetReport r = build({run_on("a", {trial(100), trial(100)}), run_on("c", {trial(150), trial(150)})});
  const MethodRow& row = r.methods.front();
  EXPECT_FALSE(row.fastest);
  EXPECT_FALSE(row.speed.ratio->low);
  EXPECT_EQ(ratio_text(*row.speed.ratio, 3), "tie: 1.50x (fewer than 3 trials: no interval)");
}

TEST(ReportRankings, SpeedupsCarryIntervalsAndTies) {
  const FleetReport r =
      build({run_on("a", noisy(100, 0.1)), run_on("b", noisy(102, 0.1)), run_on("c", noisy(150, 0.1))}, "a");
  const MethodRow& row = r.methods.front();
  const Cell& a = row.cells[index_of(r, "a")];
  const Cell& b = row.cells[index_of(r, "b")];
  const Cell& c = row.cells[index_of(r, "c")];
  EXPECT_EQ(speedup_text(a, "a", r), "baseline");
  ASSERT_TRUE(b.speedup && c.speedup);
  EXPECT_TRUE(b.speedup->tie);
  EXPECT_LT(*b.speedup->low, 1.0);
  EXPECT_FALSE(c.speedup->tie);
  EXPECT_GT(*c.speedup->low, 1.3);
  EXPECT_EQ(speedup_text(b, "b", r).rfind("tie: 1.02x [", 0), 0U) << speedup_text(b, "b", r);
  EXPECT_EQ(speedup_text(c, "c", r).rfind("1.50x [", 0), 0U) << speedup_text(c, "c", r);
}

TEST(ReportRankings, DisturbedTrialsAreLeftOutUnlessKept) {
  // Seven quiet trials at 100 and three host_busy ones at 10: a busy host, not the shape.
  std::vector<results::Trial> trials = noisy(100, 0.02, 7);
  for (int i = 0; i < 3; ++i) trials.push_back(trial(10, {"host_busy"}));
  trials.back().flags.emplace_back("left_files");  // describes the trial, not its timing
  const FleetReport quiet = build({run_on("a", trials)});
  const Cell& cell = quiet.methods.front().cells.front();
  EXPECT_EQ(cell.trials, 10);
  EXPECT_EQ(cell.left_out, 3);
  EXPECT_EQ(cell.metric_values.size(), 7U);
  EXPECT_NEAR(*cell.metric.min, 98, 1e-9);
  EXPECT_EQ(disturbance_note(cell, false), "3 of 10 trials host busy, left out");

  RankSettings keep = bootstrap_only();
  keep.use_flagged = true;
  const FleetReport kept = build({run_on("a", trials)}, "", keep);
  const Cell& all = kept.methods.front().cells.front();
  EXPECT_EQ(all.metric_values.size(), 10U);
  EXPECT_EQ(all.flagged_kept, 3);
  EXPECT_EQ(*all.metric.min, 10);
  EXPECT_EQ(disturbance_note(all, true), "3 of 10 trials host busy, kept (--use_flagged)");
}

TEST(ReportRankings, SeveralDisturbancesAreCountedByKind) {
  std::vector<results::Trial> trials = noisy(100, 0.02, 5);
  trials.push_back(trial(10, {"host_busy"}));
  trials.push_back(trial(10, {"gpu_throttled", "host_busy"}));
  const FleetReport r = build({run_on("a", trials)});
  EXPECT_EQ(disturbance_note(r.methods.front().cells.front(), false),
            "2 of 7 trials disturbed (host busy 2, gpu throttled 1), left out");
}

TEST(ReportRankings, OneRunEachIsComparedBeyondTheDefaultRunNoise) {
  // 1.3x apart, but each configuration measured in one run: within 25% of run-to-run noise (the
  // interval's low end over 1.25 reaches under 1), so no crown, and the line says why.
  const FleetReport r = build({run_on("a", noisy(100, 0.1)), run_on("c", noisy(130, 0.1))}, "", RankSettings{});
  const MethodRow& row = r.methods.front();
  EXPECT_EQ(row.run_noise.source, "default");
  EXPECT_EQ(row.run_noise.fraction, 0.25);
  EXPECT_EQ(row.run_noise.single_run, 2U);
  EXPECT_FALSE(row.fastest);
  ASSERT_TRUE(row.speed.ratio && row.speed.ratio->low);
  EXPECT_EQ(row.speed.ratio->run_noise, 0.25);
  EXPECT_LT(*row.speed.ratio->low, 1.0);
  const std::string line = fastest_summary(row, r);
  EXPECT_EQ(line.rfind("tie: 1.30x [", 0), 0U) << line;
  // The bootstrap alone named c: the crown this floor takes away.
  EXPECT_TRUE(build({run_on("a", noisy(100, 0.1)), run_on("c", noisy(130, 0.1))}).methods.front().fastest);
  EXPECT_NE(line.find("; widened by 25% between-run noise (default: no configuration ran more than once)"),
            std::string::npos)
      << line;
  EXPECT_EQ(line.find("c:"), std::string::npos) << line;  // a tie names no configuration
  // 2x apart clears the floor: named, and the line says the floor was applied.
  const FleetReport clear = build({run_on("a", noisy(100, 0.1)), run_on("c", noisy(200, 0.1))}, "", RankSettings{});
  ASSERT_TRUE(clear.methods.front().fastest);
  EXPECT_NE(fastest_summary(clear.methods.front(), clear).find("; widened by 25% between-run noise"),
            std::string::npos);
}

TEST(ReportRankings, RepeatedRunsMeasureTheFloor) {
  // a ran three times, its run medians 100, 104 and 102: 4% apart; c once, 1.3x faster. The measured
  // floor (4%) replaces the default, and 1.3x clears it.
  const FleetReport r = build({run_on("a", noisy(100, 0.02)), run_on("a", noisy(104, 0.02)),
                               run_on("a", noisy(102, 0.02)), run_on("c", noisy(130, 0.02))},
                              "", RankSettings{});
  const MethodRow& row = r.methods.front();
  EXPECT_EQ(row.run_noise.source, "measured");
  EXPECT_EQ(row.run_noise.measured_from, 1U);
  EXPECT_NEAR(row.run_noise.fraction, 0.04, 0.005);
  EXPECT_EQ(row.cells[index_of(r, "a")].runs, 3);
  EXPECT_EQ(row.cells[index_of(r, "c")].runs, 1);
  ASSERT_TRUE(row.fastest);
  EXPECT_EQ(r.configurations[*row.fastest].key, "c");
  EXPECT_NE(fastest_summary(row, r).find(
                "4% between-run noise (measured: the run medians of 1 configuration run more than once)"),
            std::string::npos)
      << fastest_summary(row, r);
}

TEST(ReportRankings, TheOnlyConfigurationWithASpeedIsNoWinner) {
  std::vector<results::Trial> busy;
  for (int i = 0; i < 5; ++i) busy.push_back(trial(10, {"host_busy"}));
  const FleetReport r = build({run_on("a", noisy(100, 0.02)), run_on("c", busy)});
  const MethodRow& row = r.methods.front();
  EXPECT_FALSE(row.fastest);
  EXPECT_FALSE(row.cheapest);
  EXPECT_EQ(row.speed.contenders, 1U);
  EXPECT_EQ(fastest_summary(row, r).rfind("tie: one configuration has a speed, nothing to rank it against", 0), 0U)
      << fastest_summary(row, r);
  EXPECT_EQ(speed_mark(row, index_of(r, "a")), "");
  const Cell& left_out = row.cells[index_of(r, "c")];
  EXPECT_EQ(left_out_label(left_out), "left out (host busy) 5/5");
  EXPECT_EQ(cell_status(left_out), "left out (host busy) 5/5");
  EXPECT_EQ(no_figure_label(left_out), "left out (host busy) 5/5");
}

TEST(ReportRankings, MetricChoosesTheRateRankedBy) {
  results::Trial t = trial(100);
  t.metrics.push_back({"triad_rate", 50, "GB/s", std::nullopt, std::nullopt});
  RankSettings by_triad = bootstrap_only();
  by_triad.metrics = {"nonexistent", "triad_rate"};
  const FleetReport r = build({run_on("a", {t, t, t})}, "", by_triad);
  ASSERT_TRUE(r.methods.front().metric);
  EXPECT_EQ(r.methods.front().metric->name, "triad_rate");
  ASSERT_EQ(r.warnings.size(), 1U);
  EXPECT_EQ(r.warnings.front().rfind("--metric nonexistent: no method reports it", 0), 0U) << r.warnings.front();
  const FleetReport first = build({run_on("a", {t, t, t})});
  EXPECT_EQ(first.methods.front().metric->name, "points_per_second");
}

}  // namespace
}  // namespace perfzero::fleet_report::report_rankings_test
