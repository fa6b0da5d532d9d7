#include "samplers/host_load_sampler.hpp"

#include "samplers/load_timeline.hpp"

#include <gtest/gtest.h>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::samplers::host_load_sampler_test {
namespace {

TEST(HostLoad, ParsesTheCpuLineOfProcStat) {
  const auto t = parse_proc_stat_cpu_line("cpu  100 5 50 1000 20 3 2 10 0 0");
  ASSERT_TRUE(t.has_value());
  EXPECT_DOUBLE_EQ(t->busy, 100 + 5 + 50 + 3 + 2);
  EXPECT_DOUBLE_EQ(t->steal, 10);
  EXPECT_DOUBLE_EQ(t->total, 1190);
  EXPECT_FALSE(parse_proc_stat_cpu_line("cpu0 1 2 3 4 5 6 7 8").has_value());
  EXPECT_FALSE(parse_proc_stat_cpu_line("cpu  1 2 3").has_value());
  // Only the first line counts: the per-CPU lines after it must not fill its missing fields.
  EXPECT_FALSE(parse_proc_stat_cpu_line("cpu  1 2 3\ncpu0 4 5 6 7 8").has_value());
  EXPECT_FALSE(parse_proc_stat_cpu_line("cpu  1 2 x 4 5 6 7 8").has_value());
  EXPECT_FALSE(parse_proc_stat_cpu_line("cpu ").has_value());
  const auto whole = parse_proc_stat_cpu_line("cpu  100 5 50 1000 20 3 2 10 0 0\ncpu0 1 1 1 1 1 1 1 1 0 0\n");
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->steal, 10);
  EXPECT_EQ(whole->total, 1190);
}

TEST(HostLoad, ANeighbourUsingACoreIsFlaggedTheTrialItselfIsNot) {
  // Two CPUs at 100 ticks/s over 1 s: 200 ticks. The trial used one CPU for the whole second.
  const CpuTimes before{0, 0, 0};
  const CpuTimes alone{100, 0, 200};    // only the trial's own second
  const CpuTimes shared{195, 0, 200};   // and another process's 0.95 s
  const CpuTimes stolen{100, 60, 200};  // the hypervisor gave 0.6 s to other guests
  const auto quiet = judge_host_load(before, alone, 1.0, 1.0, 2, 100);
  EXPECT_TRUE(quiet.judged);
  EXPECT_FALSE(quiet.busy);
  EXPECT_NEAR(quiet.other_busy_cpus, 0.0, 1e-9);
  const auto busy = judge_host_load(before, shared, 1.0, 1.0, 2, 100);
  EXPECT_TRUE(busy.busy);
  EXPECT_NEAR(busy.other_busy_cpus, 0.95, 1e-9);
  EXPECT_NEAR(busy.host_busy_cpus, 1.95, 1e-9);
  const auto steal = judge_host_load(before, stolen, 1.0, 1.0, 2, 100);
  EXPECT_TRUE(steal.busy);
  EXPECT_NEAR(steal.steal_percent, 30.0, 1e-9);
}

TEST(HostLoad, RanksOutsideTheTreeOnThisMachineAreTheMethodsOwnNotANeighbours) {
  // Slurm's ranks on this machine used 0.9 s of the 0.95 s the verdict took for a neighbour's.
  SamplerOutput out;
  out.summary = {{"judged", true},          {"judged_by", "host load"}, {"window_seconds", 1.0}, {"logical_cpus", 2},
                 {"other_busy_cpus", 0.95}, {"threshold_cpus", 0.25},   {"busy", true}};
  out.flags = {"host_busy"};
  SamplerOutput partly = out;
  count_as_own(out, 0.9, 100);
  EXPECT_FALSE(out.summary["busy"].get<bool>());
  EXPECT_NEAR(out.summary["other_busy_cpus"].get<double>(), 0.05, 1e-9);
  EXPECT_EQ(out.summary["outside_tree_cpu_seconds"], 0.9);
  EXPECT_TRUE(out.flags.empty());
  // A neighbour beside the ranks stays one.
  count_as_own(partly, 0.3, 100);
  EXPECT_TRUE(partly.summary["busy"].get<bool>());
  EXPECT_EQ(partly.flags, std::vector<std::string>{"host_busy"});
  // A short trial's verdict (another window, or the run queue) is not taken apart.
  SamplerOutput short_trial;
  short_trial.summary = {{"judged_by", "run queue"}, {"window_seconds", 0.1}, {"other_busy_cpus", 1.0}, {"busy", true}};
  short_trial.flags = {"host_busy"};
  count_as_own(short_trial, 0.1, 100);
  EXPECT_TRUE(short_trial.summary["busy"].get<bool>());
  EXPECT_EQ(short_trial.flags.size(), 1U);
}

TEST(HostLoad, ShortTrialsAreNotJudgedAndLargeMachinesHaveAHigherThreshold) {
  const CpuTimes before{0, 0, 0};
  const CpuTimes after{10, 0, 20};
  EXPECT_FALSE(judge_host_load(before, after, 0.1, 0.0, 2, 100).judged);
  EXPECT_FALSE(judge_host_load(before, after, 0.1, 0.0, 2, 100).busy);
  EXPECT_DOUBLE_EQ(judge_host_load(before, after, 1, 0, 2, 100).threshold_cpus, 0.25);
  EXPECT_DOUBLE_EQ(judge_host_load(before, after, 1, 0, 128, 100).threshold_cpus, 0.02 * 128);
}

TEST(HostLoad, AShortTrialIsJudgedByHowLongItWaitedForACpu) {
  const CpuTimes before{0, 0, 0};
  const CpuTimes after{10, 0, 20};
  HostLoadVerdict v = judge_host_load(before, after, 0.05, 0.0, 2, 100);
  ASSERT_FALSE(v.judged);
  judge_short_trial(v, std::nullopt, 0.004, 0.05);  // 8 % of its time: others did not hold its CPU for long
  EXPECT_TRUE(v.judged);
  EXPECT_FALSE(v.busy);
  EXPECT_EQ(v.judged_by, "run queue");
  HostLoadVerdict w = judge_host_load(before, after, 0.05, 0.0, 2, 100);
  judge_short_trial(w, std::nullopt, 0.006, 0.05);  // 12 %
  EXPECT_TRUE(w.busy);
  // A very short trial needs at least a millisecond of waiting: a tick of scheduling noise is not load.
  HostLoadVerdict tiny = judge_host_load(before, after, 0.002, 0.0, 2, 100);
  judge_short_trial(tiny, std::nullopt, 0.0008, 0.002);
  EXPECT_FALSE(tiny.busy);
  // A long trial keeps the host-load verdict; the wait is recorded beside it.
  HostLoadVerdict longer = judge_host_load(before, CpuTimes{100, 0, 200}, 1.0, 1.0, 2, 100);
  judge_short_trial(longer, std::nullopt, 0.5, 1.0);
  EXPECT_EQ(longer.judged_by, "host load");
  EXPECT_FALSE(longer.busy);
  EXPECT_EQ(longer.run_queue_seconds, 0.5);
}

TEST(HostLoad, AShortTrialIsAlsoJudgedByTheHostsRecentLoad) {
  // A neighbour on a hyperthread sibling slows a method that never waits: the last 0.3 s show it.
  const HostLoadVerdict recent = judge_host_load(CpuTimes{0, 0, 0}, CpuTimes{55, 0, 60}, 0.3, 0.2, 2, 100);
  ASSERT_TRUE(recent.busy);
  HostLoadVerdict v = judge_host_load(CpuTimes{0, 0, 0}, CpuTimes{2, 0, 4}, 0.02, 0.0, 2, 100);
  judge_short_trial(v, recent, 0.0, 0.02);
  EXPECT_TRUE(v.judged);
  EXPECT_TRUE(v.busy);
  EXPECT_EQ(v.judged_by, "recent host load and run queue");
  EXPECT_NEAR(v.other_busy_cpus, recent.other_busy_cpus, 1e-12);
  // A quiet recent window and no wait: not busy.
  const HostLoadVerdict quiet = judge_host_load(CpuTimes{0, 0, 0}, CpuTimes{7, 0, 60}, 0.3, 0.07, 2, 100);
  HostLoadVerdict q = judge_host_load(CpuTimes{0, 0, 0}, CpuTimes{2, 0, 4}, 0.02, 0.0, 2, 100);
  judge_short_trial(q, quiet, 0.0, 0.02);
  EXPECT_FALSE(q.busy);
}

TEST(LoadTimeline, ReachesBackToTheLatestMarkOldEnoughButNotStale) {
  LoadTimeline t;
  const auto now = LoadTimeline::Clock::now();
  using std::chrono::milliseconds;
  t.add({now - milliseconds(3000), {1, 0, 1}, 0});
  t.add({now - milliseconds(500), {2, 0, 2}, 0});
  t.add({now - milliseconds(250), {3, 0, 3}, 0});
  t.add({now - milliseconds(50), {4, 0, 4}, 0});
  const auto m = t.reaching_back(now, std::chrono::duration<double>(0.2), std::chrono::seconds(2));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->cpu.busy, 3);
  EXPECT_FALSE(t.reaching_back(now, std::chrono::duration<double>(1.0), std::chrono::seconds(2)).has_value());
  // The newest mark, unless the harness paused longer than `stale` since (the next sampler then
  // takes a new first reading).
  EXPECT_EQ(t.newest(now, std::chrono::seconds(2))->cpu.busy, 4);
  EXPECT_FALSE(t.newest(now + milliseconds(2100), std::chrono::seconds(2)).has_value());
  EXPECT_FALSE(LoadTimeline{}.newest(now, std::chrono::seconds(2)).has_value());
  t.add_tree_cpu(0.5);
  t.add_tree_cpu(0.25);
  EXPECT_DOUBLE_EQ(t.trees_cpu_seconds(), 0.75);
}

TEST(HostLoad, AReadingTheLastTrialsEndJustTookStartsTheNextTrialsWindow) {
  // A file the test writes in place of /proc/stat: what start() read shows in the window's busy CPUs.
  testing::TempDir dir;
  const auto stat = dir.write("stat", "cpu  100 0 0 900 0 0 0 0 0 0\n");
  LoadTimeline timeline;
  const auto now = LoadTimeline::Clock::now();
  // The last trial's end, a moment ago: 100 busy ticks of 1000, and the harness had used 0.5 s.
  timeline.add({now - std::chrono::milliseconds(1), CpuTimes{100, 0, 1000}, 0.5});
  HostLoadSampler sampler(stat.string(), &timeline);
  dir.write("stat", "cpu  999 0 0 1 0 0 0 0 0 0\n");  // read now, it would give another start
  sampler.start(0);
  dir.write("stat", "cpu  150 0 0 950 0 0 0 0 0 0\n");  // the trial's end: 50 busy ticks of 100
  TrialFacts facts;
  facts.wall_seconds = 0.5;
  facts.tree_cpu_seconds = 0.0;
  const auto out = sampler.finish(facts);
  ASSERT_EQ(out.summary["available"], true) << out.summary.dump();
  EXPECT_GT(out.summary["host_busy_cpus"].get<double>(), 0.0)
      << "the window did not start at the mark: " << out.summary.dump();
  // A mark older than the reuse limit (and too young to reach back to) is not taken: start() reads
  // the file, and the window from there to the end saw no busy tick.
  LoadTimeline older;
  older.add({now - std::chrono::milliseconds(20), CpuTimes{100, 0, 1000}, 0.5});
  HostLoadSampler reading(stat.string(), &older);
  dir.write("stat", "cpu  150 0 0 950 0 0 0 0 0 0\n");
  reading.start(0);
  const auto same = reading.finish(facts);
  EXPECT_EQ(same.summary["host_busy_cpus"].get<double>(), 0.0) << same.summary.dump();
}

TEST(HostLoad, SamplesTheRealProcStat) {
  // A timeline with no reading: the sampler takes one and waits kMinWindowSeconds before the method
  // starts, so even the run's first short trial is judged by the host's recent load.
  LoadTimeline none;
  const auto made = LoadTimeline::Clock::now();
  HostLoadSampler sampler("/proc/stat", &none);
  EXPECT_GE(std::chrono::duration<double>(LoadTimeline::Clock::now() - made).count(),
            HostLoadSampler::kMinWindowSeconds);
  ASSERT_TRUE(none.newest(LoadTimeline::Clock::now(), HostLoadSampler::kStaleAfter).has_value());
  sampler.start(0);
  sampler.sample(0.0);
  TrialFacts facts;
  facts.wall_seconds = 0.01;
  facts.tree_cpu_seconds = 0.0;
  const auto out = sampler.finish(facts);
  EXPECT_EQ(out.summary["available"], true);
  EXPECT_EQ(out.summary["judged"], true);
  EXPECT_EQ(out.summary["judged_by"], "recent host load") << out.summary.dump();
  EXPECT_EQ(out.series.columns.size(), 3U);
  // The next sampler finds a fresh reading and does not wait.
  const auto again = LoadTimeline::Clock::now();
  HostLoadSampler next("/proc/stat", &none);
  EXPECT_LT(std::chrono::duration<double>(LoadTimeline::Clock::now() - again).count(),
            HostLoadSampler::kMinWindowSeconds);

  // Counters that cannot be read give no reading to wait for.
  LoadTimeline empty;
  HostLoadSampler missing("/nonexistent/stat", &empty);
  EXPECT_FALSE(empty.newest(LoadTimeline::Clock::now(), HostLoadSampler::kStaleAfter).has_value());
  missing.start(0);
  EXPECT_EQ(missing.finish(TrialFacts{}).summary["available"], false);
}

}  // namespace
}  // namespace perfzero::samplers::host_load_sampler_test
