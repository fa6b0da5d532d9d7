// perfzero doctor's checks on fake /proc, /sys and cgroup trees (doctor/machine_checks.hpp), and the
// noise score's verdict on recorded figures.
#include <gtest/gtest.h>

#include <cerrno>
#include <fstream>
#include <string>

#include "doctor/machine_checks.hpp"
#include "doctor/noise_score.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::doctor::doctor_checks_test {
namespace {

void put(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << text << "\n";
}

const Check& find(const std::vector<Check>& checks, const std::string& name) {
  for (const auto& c : checks) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no check " + name);
}

struct FakeMachine {
  testing::TempDir dir;
  DoctorPaths paths{dir.path() / "proc", dir.path() / "sys", dir.path() / "cgroup"};
  FakeMachine() {
    paths.perf_event_open_error = [] { return 0; };
    put(paths.sys / "devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave");
    put(paths.sys / "devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance");
    put(paths.sys / "devices/system/cpu/cpufreq/boost", "1");
    put(paths.sys / "devices/system/cpu/smt/active", "1");
    put(paths.proc / "sys/kernel/randomize_va_space", "2");
    put(paths.sys / "kernel/mm/transparent_hugepage/enabled", "[always] madvise never");
    put(paths.proc / "meminfo", "MemTotal:       1000000 kB\nSwapTotal:       2097152 kB\nSwapFree:        1048576 kB");
    put(paths.proc / "sys/kernel/perf_event_paranoid", "1");
    put(paths.proc / "self/cgroup", "0::/");
    put(paths.cgroup / "cgroup.controllers", "cpu memory");
    put(paths.cgroup / "cpu.max", "50000 100000");
    put(paths.cgroup / "memory.max", "1073741824");
  }
};

TEST(DoctorChecks, WhatNeedsFixingIsAWarningWithItsFix) {
  FakeMachine m;
  const auto checks = read_checks(m.paths);
  const Check& governor = find(checks, "cpu_governor");
  EXPECT_EQ(governor.status, Status::warn);
  EXPECT_EQ(governor.found, "performance, powersave");
  EXPECT_NE(governor.fix.find("cpupower frequency-set -g performance"), std::string::npos);
  EXPECT_EQ(find(checks, "cpu_boost").status, Status::warn);
  EXPECT_EQ(find(checks, "transparent_huge_pages").status, Status::warn);
  EXPECT_EQ(find(checks, "transparent_huge_pages").found, "always");
  EXPECT_EQ(find(checks, "swap").status, Status::warn);
  EXPECT_EQ(find(checks, "swap").found, "1024 MiB of 2048 MiB in use");
  EXPECT_EQ(find(checks, "perf_event_paranoid").status, Status::ok);
  EXPECT_EQ(find(checks, "smt").status, Status::info);
  EXPECT_EQ(find(checks, "aslr").status, Status::info);
  const Check& limits = find(checks, "container_limits");
  EXPECT_EQ(limits.status, Status::info);
  EXPECT_NE(limits.found.find("CPU quota 0.50 CPUs, memory limit 1024 MiB"), std::string::npos) << limits.found;
}

TEST(DoctorChecks, ARefusedPerfEventOpenIsAWarningWhateverTheSysctlSays) {
  FakeMachine m;
  for (const int error : {EPERM, EACCES, ENOSYS}) {
    m.paths.perf_event_open_error = [error] { return error; };
    const auto checks = read_checks(m.paths);
    const Check& c = find(checks, "perf_event_paranoid");
    EXPECT_EQ(c.status, Status::warn) << error;
    EXPECT_NE(c.found.find("perf_event_open refused"), std::string::npos) << c.found;
    EXPECT_NE(c.fix.find("--cap-add PERFMON"), std::string::npos) << c.fix;
  }
}

TEST(DoctorChecks, AWellSetMachineIsOk) {
  FakeMachine m;
  put(m.paths.sys / "devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance");
  put(m.paths.sys / "devices/system/cpu/cpufreq/boost", "0");
  put(m.paths.sys / "kernel/mm/transparent_hugepage/enabled", "always [madvise] never");
  put(m.paths.proc / "meminfo", "SwapTotal:       0 kB\nSwapFree:        0 kB");
  put(m.paths.cgroup / "cpu.max", "max 100000");
  put(m.paths.cgroup / "memory.max", "max");
  for (const auto& c : read_checks(m.paths)) EXPECT_NE(c.status, Status::warn) << c.name << ": " << c.found;
}

TEST(DoctorChecks, WhatCannotBeReadIsSaidNotGuessed) {
  testing::TempDir empty;
  DoctorPaths paths{empty.path() / "proc", empty.path() / "sys", empty.path() / "cgroup"};
  paths.perf_event_open_error = [] { return 0; };
  for (const auto& c : read_checks(paths)) {
    EXPECT_EQ(c.status, Status::info) << c.name;
    EXPECT_FALSE(c.found.empty()) << c.name;
  }
  const auto load = load_checks(paths, std::chrono::milliseconds(1));
  ASSERT_EQ(load.size(), 2U);
  EXPECT_EQ(load[0].found, "not readable");
}

TEST(DoctorChecks, StealTimeAndOthersLoadFromProcStat) {
  FakeMachine m;
  // Between the two reads the test cannot change the file: the same file twice has no time passing.
  put(m.paths.proc / "stat", "cpu  100 0 100 800 0 0 0 0 0 0");
  EXPECT_EQ(load_checks(m.paths, std::chrono::milliseconds(1))[0].found, "not readable");
}

TEST(NoiseScore, AComputeOrMemoryKernelVaryingByMoreThanFivePercentIsAWarning) {
  EXPECT_EQ(noise_check({{"compute", 50, 0.01, 0.004}, {"memory", 50, 0.02, 0.03}, {"file", 50, 0.003, 0.4}}).status,
            Status::ok);  // the disk's own variation is reported, not judged
  const Check noisy = noise_check({{"compute", 50, 0.01, 0.08}, {"memory", 50, 0.02, 0.01}});
  EXPECT_EQ(noisy.status, Status::warn);
  EXPECT_EQ(noisy.found, "compute 8.0 % (50 rounds), memory 1.0 % (50 rounds)");
}

TEST(NoiseScore, EachKernelRunsAtLeastFiveRounds) {
  testing::TempDir dir;
  const auto noise = measure_noise(std::chrono::milliseconds(30), dir.path());
  ASSERT_EQ(noise.size(), 3U);
  for (const auto& k : noise) {
    EXPECT_GE(k.rounds, 5) << k.kernel;
    EXPECT_GT(k.median_seconds, 0) << k.kernel;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // the file kernel's file is gone
}

}  // namespace
}  // namespace perfzero::doctor::doctor_checks_test
