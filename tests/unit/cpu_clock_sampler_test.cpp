// The CPU clock sampler on fake sysfs trees and /proc/cpuinfo files (samplers/cpu_clock_sampler.hpp):
// what it reads, when it flags cpu_throttled, and what it says where no maximum clock is known.
#include "samplers/cpu_clock_sampler.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::samplers::cpu_clock_sampler_test {
namespace {

void put(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << text << "\n";
}

// Two CPUs with cpufreq (maximum 3 GHz) and thermal throttle counters.
struct FakeCpus {
  testing::TempDir dir;
  FakeCpus() {
    for (const char* cpu : {"cpu0", "cpu1"}) {
      put(dir.path() / cpu / "cpufreq" / "cpuinfo_max_freq", "3000000");
      put(dir.path() / cpu / "cpufreq" / "scaling_cur_freq", "2950000");
      put(dir.path() / cpu / "thermal_throttle" / "core_throttle_count", "5");
      put(dir.path() / cpu / "thermal_throttle" / "package_throttle_count", "1");
    }
    std::filesystem::create_directories(dir.path() / "cpufreq");  // not a CPU
  }
  void clock(const char* khz) {
    for (const char* cpu : {"cpu0", "cpu1"}) put(dir.path() / cpu / "cpufreq" / "scaling_cur_freq", khz);
  }
  CpuClockPaths paths() const { return {dir.path(), dir.path() / "no-cpuinfo"}; }
};

TEST(CpuClockSampler, AClockBelowNinetyPercentInMoreThanATenthOfTheSamplesIsThrottled) {
  FakeCpus cpus;
  CpuClockSampler sampler(cpus.paths());
  sampler.start(0);
  for (int i = 0; i < 3; ++i) sampler.sample(0.25 * i);
  cpus.clock("2000000");  // 2 GHz: 67 % of the maximum
  sampler.sample(0.75);
  sampler.sample(1.0);
  put(cpus.dir.path() / "cpu0" / "thermal_throttle" / "core_throttle_count", "8");
  const SamplerOutput out = sampler.finish(TrialFacts{});
  EXPECT_EQ(out.flags, std::vector<std::string>{"cpu_throttled"});
  EXPECT_EQ(out.summary["source"], "cpufreq scaling_cur_freq");
  EXPECT_DOUBLE_EQ(out.summary["max_mhz"].get<double>(), 3000);
  EXPECT_DOUBLE_EQ(out.summary["lowest_mhz"].get<double>(), 2000);
  EXPECT_DOUBLE_EQ(out.summary["mean_mhz"].get<double>(), (3 * 2950 + 2 * 2000) / 5.0);
  EXPECT_DOUBLE_EQ(out.summary["below_threshold_percent"].get<double>(), 40);
  EXPECT_EQ(out.summary["thermal_throttle_events"]["core"], 3);
  EXPECT_EQ(out.summary["thermal_throttle_events"]["package"], 0);
  EXPECT_EQ(out.series.rows.size(), 5U);
}

TEST(CpuClockSampler, OneLowSampleInTwentyIsNotThrottledAndTheLimitsAreSettable) {
  FakeCpus cpus;
  CpuClockSampler sampler(cpus.paths());
  sampler.start(0);
  for (int i = 0; i < 19; ++i) sampler.sample(i);
  cpus.clock("1000000");
  sampler.sample(19);
  const SamplerOutput out = sampler.finish(TrialFacts{});
  EXPECT_TRUE(out.flags.empty());
  EXPECT_DOUBLE_EQ(out.summary["below_threshold_percent"].get<double>(), 5);
  // At a threshold of 50 % a 2 GHz clock of a 3 GHz CPU is not throttled.
  FakeCpus again;
  again.clock("2000000");
  CpuClockSampler lenient(again.paths(), CpuClockSettings{0.5, 0.1});
  lenient.start(0);
  lenient.sample(0);
  EXPECT_TRUE(lenient.finish(TrialFacts{}).flags.empty());
}

TEST(CpuClockSampler, WithoutCpufreqTheClockComesFromCpuinfoAndNothingIsJudged) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "cpus" / "cpu0");
  put(dir.path() / "cpuinfo", "processor\t: 0\ncpu MHz\t\t: 2445.426\n\nprocessor\t: 1\ncpu MHz\t\t: 2400.000");
  CpuClockSampler sampler({dir.path() / "cpus", dir.path() / "cpuinfo"});
  sampler.start(0);
  sampler.sample(0);
  const SamplerOutput out = sampler.finish(TrialFacts{});
  EXPECT_TRUE(out.flags.empty());
  EXPECT_EQ(out.summary["source"], "/proc/cpuinfo cpu MHz");
  EXPECT_NEAR(out.summary["mean_mhz"].get<double>(), 2422.713, 1e-9);
  EXPECT_EQ(out.summary["judged"], false);
  EXPECT_NE(out.summary["why_not_judged"].get<std::string>().find("no maximum clock known"), std::string::npos);
  EXPECT_TRUE(out.summary["thermal_throttle_events"]["core"].is_null());
}

// Without cpufreq and without APERF/MPERF (a VM's flags) the kernel prints its TSC calibration as
// "cpu MHz": it is read once, not generated again at every sample.
TEST(CpuClockSampler, ACpuinfoClockThatCannotMoveIsReadOnce) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "cpus" / "cpu0");
  put(dir.path() / "cpuinfo", "processor\t: 0\ncpu MHz\t\t: 2596.130\nflags\t\t: fpu tsc constant_tsc hypervisor\n");
  CpuClockSampler first({dir.path() / "cpus", dir.path() / "cpuinfo"});
  first.start(0);
  first.sample(0);
  put(dir.path() / "cpuinfo", "processor\t: 0\ncpu MHz\t\t: 1000.000\nflags\t\t: fpu tsc constant_tsc hypervisor\n");
  first.sample(0.3);
  CpuClockSampler second({dir.path() / "cpus", dir.path() / "cpuinfo"});
  second.start(0);
  second.sample(0);
  for (auto* sampler : {&first, &second}) {
    const SamplerOutput out = sampler->finish(TrialFacts{});
    EXPECT_NEAR(out.summary["mean_mhz"].get<double>(), 2596.130, 1e-9);
    EXPECT_NE(out.summary["source"].get<std::string>().find("read once"), std::string::npos);
  }
}

TEST(CpuClockSampler, ACpuinfoClockFromAperfMperfIsReadAtEverySample) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "cpus" / "cpu0");
  put(dir.path() / "cpuinfo", "processor\t: 0\ncpu MHz\t\t: 3000.000\nflags\t\t: fpu tsc aperfmperf\n");
  CpuClockSampler sampler({dir.path() / "cpus", dir.path() / "cpuinfo"});
  sampler.start(0);
  sampler.sample(0);
  put(dir.path() / "cpuinfo", "processor\t: 0\ncpu MHz\t\t: 1000.000\nflags\t\t: fpu tsc aperfmperf\n");
  sampler.sample(0.3);
  const SamplerOutput out = sampler.finish(TrialFacts{});
  EXPECT_NEAR(out.summary["mean_mhz"].get<double>(), 2000.0, 1e-9);
  EXPECT_EQ(out.summary["source"], "/proc/cpuinfo cpu MHz");
}

TEST(CpuClockSampler, ATrialShorterThanASampleSaysSo) {
  FakeCpus cpus;
  CpuClockSampler sampler(cpus.paths());
  sampler.start(0);
  const SamplerOutput out = sampler.finish(TrialFacts{});
  EXPECT_EQ(out.summary["judged"], false);
  EXPECT_NE(out.summary["why_not_judged"].get<std::string>().find("no sample"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::samplers::cpu_clock_sampler_test
