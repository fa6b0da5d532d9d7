// The counters sampler on the real binary: perfzero-launch counts the method's whole tree from its
// exec (harness/launcher/launcher_counters.h), and the counts become the trial's metrics. This VM has
// no PMU: the hardware counters must be named unavailable with the reason; where a PMU exists they
// must be counted, with IPC.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::counters_test {
namespace {

std::map<std::string, double> metrics_of(const nlohmann::json& report) {
  std::map<std::string, double> out;
  for (const auto& m : report["benchmark_result"]["metrics"])
    out[m["name"].get<std::string>()] = m["value"].get<double>();
  return out;
}

nlohmann::json trial_report(const std::filesystem::path& run, const std::string& method) {
  return read_json(run / method / "trial_1" / "perfzero_summary.json");
}

constexpr const char* kSuite = R"(
defaults: {trials: 1}
methods:
  - name: sleeps
    description: 20 sleeps of 10 ms, each in a process of its own (forked by the shell)
    command: [/bin/sh, -c, 'i=0; while [ $i -lt 20 ]; do sleep 0.01; i=$((i+1)); done']
    output: none
  - name: pages
    description: touches 64 MiB, one write per 4 KiB page
    command: [/usr/bin/python3, -c, 'b = bytearray(64 << 20); b[::4096] = b"x" * (16384)']
    output: none
    trials: 4
)";

TEST(Counters, SleepsAndPagesAreCountedOverTheWholeTree) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", kSuite);
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.out << f.err;
  const auto sleeps = trial_report(dir.path() / "run", "sleeps");
  const auto m = metrics_of(sleeps);
  // Each sleep gives up the CPU at least once, in a child of the shell: counting follows forks.
  ASSERT_TRUE(m.count("context_switches")) << sleeps["benchmark_result"].dump();
  EXPECT_GE(m.at("context_switches"), 20) << sleeps["perfzero_cpp"]["samplers"]["counters"].dump();
  EXPECT_GT(m.at("task_clock"), 0);
  const auto& counters = sleeps["perfzero_cpp"]["samplers"]["counters"];
  EXPECT_EQ(counters["available"], true);
  // Every trial, not only the run's first: the launcher's counters live across trials, and once the
  // kernel swapped perf contexts between the launcher and a method, a later trial read 0.
  for (int trial = 1; trial <= 4; ++trial) {
    const auto report =
        read_json(dir.path() / "run" / "pages" / ("trial_" + std::to_string(trial)) / "perfzero_summary.json");
    EXPECT_GE(metrics_of(report).at("page_faults"), 16384) << "trial " << trial;  // 64 MiB / 4 KiB
  }
  for (const auto* name : {"context_switches", "page_faults", "task_clock"}) {
    EXPECT_EQ(counters["counted"][name]["source"], "perf_event") << counters.dump();
  }
  // Hardware: counted with IPC where the machine has a PMU, else each named with the reason.
  if (counters["counted"].contains("cycles")) {
    EXPECT_GT(m.at("instructions"), 0);
    EXPECT_TRUE(m.count("ipc"));
  } else {
    for (const auto* name :
         {"cycles", "instructions", "branches", "branch_misses", "cache_references", "cache_misses"}) {
      ASSERT_TRUE(counters["unavailable"].contains(name)) << counters.dump();
      EXPECT_FALSE(counters["unavailable"][name].get<std::string>().empty());
    }
    EXPECT_FALSE(m.count("ipc"));
  }
}

TEST(Counters, NoneCountsNothingAndAnUnknownNameIsAUsageError) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", kSuite);
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run", "--counters=none"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.out << f.err;
  const auto m = metrics_of(trial_report(dir.path() / "run", "sleeps"));
  EXPECT_FALSE(m.count("context_switches"));
  EXPECT_FALSE(m.count("task_clock"));
  const auto some =
      run_perfzero({"--config=" + suite.string(), "--output_dir=run2", "--counters=page_faults"}, dir.path());
  ASSERT_EQ(some.exit_code, 0) << some.err;
  const auto only = metrics_of(trial_report(dir.path() / "run2", "pages"));
  EXPECT_TRUE(only.count("page_faults"));
  EXPECT_FALSE(only.count("context_switches"));
  const auto bad =
      run_perfzero({"--config=" + suite.string(), "--output_dir=run3", "--counters=cycles,bogus"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown counter 'bogus'"), std::string::npos) << bad.err;
}

// The clock beside the counters: here (no cpufreq in this VM) read from /proc/cpuinfo and not judged;
// the limits are checked flags.
TEST(Counters, TheCpuClockIsRecordedAndItsLimitsAreCheckedFlags) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", kSuite);
  const auto f =
      run_perfzero({"--config=" + suite.string(), "--output_dir=run", "--cpu_throttle_threshold=80"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.out << f.err;
  const auto clock = trial_report(dir.path() / "run", "sleeps")["perfzero_cpp"]["samplers"]["cpu_clock"];
  ASSERT_TRUE(clock.is_object()) << clock.dump();
  EXPECT_EQ(clock["threshold_percent"], 80.0);
  EXPECT_GE(clock["samples"].get<int>(), 1) << clock.dump();  // 20 sleeps of 10 ms: at least 200 ms
  if (clock["judged"] == false) {
    EXPECT_TRUE(clock.contains("why_not_judged")) << clock.dump();
  }
  const auto bad =
      run_perfzero({"--config=" + suite.string(), "--output_dir=run2", "--cpu_throttle_share=101"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("cpu_throttle_share"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace perfzero::testing::counters_test
