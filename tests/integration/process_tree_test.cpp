// The monitor and the kernel's accounting see the whole process tree, and nothing outlives a run.
#include <gtest/gtest.h>

#include <functional>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::process_tree_test {
namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

// Under AddressSanitizer every process carries the sanitizer's shadow memory and quarantine, so
// memory figures have no tight upper bound there (this method's kernel peak is 250 MiB under ASan,
// 212 MiB without, and once read 550 MiB under ASan in CI). Upper bounds apply to normal builds;
// lower bounds, the property under test, apply everywhere.
// kSanitizedBuild: perfzero_runner.hpp.

TEST(ProcessTree, AGrandchildsShortPeakShowsInMaxRss) {
  TempDir dir;
  // hold_ms 0: the 200 MiB live for a few milliseconds only, far less than the 100 ms sampling interval.
  const auto suite = dir.write("tree.yaml", R"(
methods:
  - method: sanity.Sanity.benchmark_spawn_allocating_child
    params: {mib: 200, hold_ms: 0}
    trials: 3
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  for (int trial = 1; trial <= 3; ++trial) {
    const auto r = read_json(dir.path() / "run" / "sanity.Sanity.benchmark_spawn_allocating_child_hold_ms_0_mib_200_" /
                             ("trial_" + std::to_string(trial)) / "perfzero_summary.json");
    EXPECT_GE(r["process_info"]["max_rss"].get<std::uint64_t>(), 200 * kMiB) << "trial " << trial;
    // The worker itself is a few MiB: the peak is the grandchild's, not an inherited high-water mark.
    if (!kSanitizedBuild) {
      EXPECT_LT(r["process_info"]["max_rss"].get<std::uint64_t>(), 260 * kMiB);
    }
    EXPECT_GE(r["perfzero_cpp"]["process"]["kernel_rusage"]["reaped_processes"].get<int>(), 1);
  }
}

TEST(ProcessTree, SmallMethodsAreNotChargedTheHarnesssMemory) {
  TempDir dir;
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto r = read_json(dir.path() / "run" / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json");
  EXPECT_GT(r["process_info"]["max_rss"].get<std::uint64_t>(), 0U);
  if (!kSanitizedBuild) {
    EXPECT_LT(r["process_info"]["max_rss"].get<std::uint64_t>(), 32 * kMiB);
  }
}

TEST(ProcessTree, ThreadsAndCpuOfAllThreadsAreSampled) {
  TempDir dir;
  const auto suite = dir.write("spin.yaml", R"(
methods:
  - method: sanity.Sanity.benchmark_spin
    params: {threads: 2, ms: 600}
    monitor_interval_ms: 20
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto trial = dir.path() / "run" / "sanity.Sanity.benchmark_spin_ms_600_threads_2_" / "trial_1";
  const auto r = read_json(trial / "perfzero_summary.json");
  EXPECT_GE(r["perfzero_cpp"]["process"]["max_threads"].get<int>(), 3);
  // The machine is shared, so how much CPU the spinners get varies; what must hold is that the
  // sampled peak (summed over threads) is at least the kernel's average over the whole run.
  const double peak = r["process_info"]["max_cpu_percent"].get<double>();
  const double average = r["perfzero_cpp"]["process"]["avg_cpu_percent"].get<double>();
  EXPECT_GT(average, 10.0);
  EXPECT_GE(peak, 0.8 * average);
  EXPECT_GT(r["perfzero_cpp"]["process"]["user_cpu_seconds"].get<double>(), 0.05);
  // process_info.log: one JSON object per sample with PerfZero's keys.
  std::ifstream log(trial / "process_info.log");
  std::string line;
  int samples = 0;
  while (std::getline(log, line)) {
    const auto sample = nlohmann::json::parse(line);
    for (const char* key : {"time", "rss", "vms", "cpu_percent"}) EXPECT_TRUE(sample.contains(key)) << line;
    ++samples;
  }
  // At 20 ms over 600 ms there are about 30, but a loaded machine may run the monitor late: the peak
  // above needs two samples (a CPU percentage is the change between two), not a rate.
  EXPECT_GE(samples, 2);
}

TEST(ProcessTree, TimeoutKillsTheWholeTreeIncludingEscapedGrandchildren) {
  TempDir dir;
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_hang,sanity.Sanity.benchmark_noop",
                               "--timeout=1s", "--output_dir=" + out.string()},
                              dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;
  const auto r = read_json(out / "sanity.Sanity.benchmark_hang" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(r["perfzero_cpp"]["outcome"], "timed_out");
  EXPECT_GE(r["perfzero_cpp"]["process"]["leftover_processes_killed"].get<int>(), 2);
  EXPECT_NEAR(r["benchmark_result"]["wall_time"].get<double>(), 1.0, 0.5);
  // The harness went on to the next method.
  const auto next = read_json(out / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(next["perfzero_cpp"]["outcome"], "succeeded");
  EXPECT_TRUE(processes_started_under(out).empty());
}

// The pid a trial's shell printed as its parent: the launcher that started it.
pid_t launcher_of(const std::filesystem::path& trial_dir) {
  std::ifstream log(trial_dir / "perfzero.log");
  long pid = -1;
  log >> pid;
  return static_cast<pid_t>(pid);
}

// True while `pid` is a live perfzero-launch (a recycled pid runs something else).
bool is_live_launcher(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_text, name, state;
  return static_cast<bool>(stat >> pid_text >> name >> state) && name == "(perfzero-launch)" && state != "Z";
}

bool within(std::chrono::seconds limit, const std::function<bool()>& condition) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return condition();
}

TEST(ProcessTree, OneLauncherServesEveryTrialOfARunAndEndsWithIt) {
  TempDir dir;
  const auto suite = dir.write("launcher.yaml", R"(
defaults: {trials: 3, warmup_trials: 0}
methods:
  - {name: tree.parent, command: [/bin/sh, -c, 'echo $PPID'], output: none}
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const pid_t first = launcher_of(dir.path() / "run" / "tree.parent" / "trial_1");
  ASSERT_GT(first, 0);
  for (const char* trial : {"trial_2", "trial_3"}) {
    EXPECT_EQ(launcher_of(dir.path() / "run" / "tree.parent" / trial), first) << trial;
  }
  EXPECT_FALSE(is_live_launcher(first)) << "the launcher outlived its run";
}

TEST(ProcessTree, AKilledLauncherFailsItsTrialSayingSoAndTheNextTrialGetsANewOne) {
  TempDir dir;
  // Trial 1 kills its own launcher and leaves a sleep behind; trial 2 runs normally.
  const auto suite = dir.write("killed.yaml", R"(
defaults: {trials: 2, warmup_trials: 0}
methods:
  - name: tree.killer
    command: [/bin/sh, -c, 'echo $PPID; if [ "$PERFZERO_TRIAL" = 1 ]; then kill -9 $PPID; sleep 30; fi']
    output: none
)");
  const auto started = std::chrono::steady_clock::now();
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20)) << "the harness waited";
  const auto case_dir = dir.path() / "run" / "tree.killer";
  const auto first = read_json(case_dir / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(first["perfzero_cpp"]["outcome"], "failed") << f.out;
  EXPECT_NE(first["perfzero_cpp"]["outcome_detail"].get<std::string>().find("perfzero-launch killed by signal 9"),
            std::string::npos)
      << first["perfzero_cpp"]["outcome_detail"];
  const auto second = read_json(case_dir / "trial_2" / "perfzero_summary.json");
  EXPECT_EQ(second["perfzero_cpp"]["outcome"], "succeeded") << f.out;
  EXPECT_NE(launcher_of(case_dir / "trial_2"), launcher_of(case_dir / "trial_1"));
  EXPECT_TRUE(processes_started_under(dir.path() / "run").empty()) << "trial 1's sleep outlived it";
}

TEST(ProcessTree, AKillNineOfTheHarnessEndsItsLauncherAndTheMethod) {
  TempDir dir;
  const auto suite = dir.write("sleep.yaml", R"(
methods:
  - {name: tree.sleeper, command: [/bin/sh, -c, 'echo $PPID; sleep 30'], output: none}
)");
  RunningPerfzero running({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  const auto trial_dir = dir.path() / "run" / "tree.sleeper" / "trial_1";
  ASSERT_TRUE(within(std::chrono::seconds(30), [&] { return launcher_of(trial_dir) > 0; }));
  const pid_t launcher = launcher_of(trial_dir);
  EXPECT_TRUE(is_live_launcher(launcher));
  running.signal(SIGKILL);
  running.wait();
  EXPECT_TRUE(within(std::chrono::seconds(5), [&] { return !is_live_launcher(launcher); }))
      << "the launcher outlived its harness";
  EXPECT_TRUE(within(std::chrono::seconds(5), [&] { return processes_started_under(dir.path() / "run").empty(); }))
      << "the method outlived its harness";
}

}  // namespace
}  // namespace perfzero::testing::process_tree_test
