// The doctor's GPU checks (doctor/gpu_checks.hpp) against the tests' fake libnvidia-ml
// (tests/fakes/fake_nvml.c: no GPU can exist here), and its reading of the kernel log for the
// driver's XID errors (doctor/kernel_log.hpp) on files shaped as /dev/kmsg and dmesg write them.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "doctor/gpu_checks.hpp"
#include "doctor/kernel_log.hpp"
#include "nvml/nvml_library.hpp"
#include "scoped_env.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::doctor::doctor_gpu_checks_test {
namespace {

using testing::ScopedEnv;

const Check& find(const std::vector<Check>& checks, const std::string& name) {
  for (const auto& c : checks) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no check " + name);
}

std::filesystem::path write(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

// Two records as /dev/kmsg gives them ("pri,seq,usec,flags;text", continuation lines after), one as
// dmesg prints it, and lines that only look alike.
constexpr const char* kKmsg =
    "6,100,5000000,-;usb 1-1: new high-speed USB device\n"
    "4,101,6000000,-;NVRM: Xid (PCI:0000:3b:00): 48, pid=4242, name=python3, An uncorrectable double bit error\n"
    " SUBSYSTEM=pci\n"
    " DEVICE=+pci:0000:3b:00.0\n"
    "[ 7.000000] NVRM: Xid (PCI:0000:86:00): 79, pid=1, GPU has fallen off the bus.\n"
    "4,103,8000000,-;NVRM: Xid (PCI:0000:3b:00): x, not a number\n"
    "4,104,9000000,-;NVRM: GPU at PCI:0000:3b:00: GPU-1234\n";

TEST(KernelLog, PicksTheDriversXidLinesOldestFirst) {
  testing::TempDir dir;
  const auto log = read_logged_xids(write(dir.path() / "kmsg", kKmsg));
  EXPECT_EQ(log.unreadable, "");
  ASSERT_EQ(log.total, 2U);
  ASSERT_EQ(log.xids.size(), 2U);
  EXPECT_EQ(log.xids[0].pci, "0000:3b:00");
  EXPECT_EQ(log.xids[0].xid, 48U);
  EXPECT_EQ(log.xids[0].message, "pid=4242, name=python3, An uncorrectable double bit error");
  EXPECT_EQ(log.xids[1].pci, "0000:86:00");
  EXPECT_EQ(log.xids[1].xid, 79U);
}

TEST(KernelLog, NonUtf8BytesAndALastLineWithoutNewlineAreRead) {
  testing::TempDir dir;
  const auto log = read_logged_xids(write(dir.path() / "kmsg", std::string("4,1,1,-;NVRM: Xid (PCI:0000:3b:00): 13, "
                                                                           "Graphics \xff\xfe Exception\x01") +
                                                                   "\n4,2,2,-;NVRM: Xid (PCI:0000:3b:00): 31, end"));
  ASSERT_EQ(log.total, 2U);
  EXPECT_EQ(log.xids[0].message, "Graphics ?? Exception?");
  EXPECT_EQ(log.xids[1].xid, 31U);
  EXPECT_EQ(log.xids[1].message, "end");
}

TEST(KernelLog, KeepsTheLastHundredOfMany) {
  testing::TempDir dir;
  std::string many;
  for (int i = 1; i <= 250; ++i) many += "4,1,1,-;NVRM: Xid (PCI:0000:3b:00): " + std::to_string(i) + ", x\n";
  const auto log = read_logged_xids(write(dir.path() / "kmsg", many));
  EXPECT_EQ(log.total, 250U);
  ASSERT_EQ(log.xids.size(), kMostXids);
  EXPECT_EQ(log.xids.front().xid, 151U);
  EXPECT_EQ(log.xids.back().xid, 250U);
}

TEST(KernelLog, AMissingFileOrAFifoIsSaidAndNeverBlocks) {
  testing::TempDir dir;
  const auto missing = read_logged_xids(dir.path() / "none");
  EXPECT_NE(missing.unreadable.find("No such file"), std::string::npos) << missing.unreadable;
  // A FIFO with no writer: a blocking read would wait for ever.
  const auto fifo = dir.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto log = read_logged_xids(fifo);
  EXPECT_EQ(log.total, 0U);
  // A directory is no log either.
  EXPECT_NE(read_logged_xids(dir.path()).unreadable, "");
}

struct FakeGpu {
  testing::TempDir dir;
  DoctorPaths paths{dir.path() / "proc", dir.path() / "sys", dir.path() / "cgroup", dir.path() / "kmsg"};
};

TEST(DoctorGpuChecks, NoGpuMeansNoGpuChecks) {
  const ScopedEnv env{{nvml::kLibraryEnv, "/nonexistent/libnvidia-ml.so.1"}};
  FakeGpu machine;
  EXPECT_TRUE(GpuChecks(machine.paths).finish().empty());
}

TEST(DoctorGpuChecks, PersistenceOffUnlockedClocksAndXidsAreWarningsWithTheirFix) {
  FakeGpu machine;
  write(machine.paths.kmsg, kKmsg);
  const ScopedEnv env{{nvml::kLibraryEnv, PERFZERO_FAKE_NVML},
                      {"FAKE_NVML_PERSISTENCE", "0"},
                      {"FAKE_NVML_XID", "94"},
                      {"FAKE_NVML_STATE_DIR", machine.dir.path().string()}};
  GpuChecks gpus(machine.paths);
  const auto checks = gpus.finish();
  const auto& persistence = find(checks, "gpu0_persistence");
  EXPECT_EQ(persistence.status, Status::warn);
  EXPECT_NE(persistence.fix.find("nvidia-smi -pm 1"), std::string::npos);
  const auto& clocks = find(checks, "gpu0_clocks");
  EXPECT_EQ(clocks.status, Status::info) << "a guess from NVML's event reasons, not yet checked on a real GPU";
  EXPECT_NE(clocks.found.find("SM at 1980 MHz of at most 1980 MHz"), std::string::npos) << clocks.found;
  EXPECT_NE(clocks.found.find("--lock_gpu_clocks=base"), std::string::npos);
  EXPECT_EQ(find(checks, "gpu0_ecc").found, "ECC on");
  EXPECT_EQ(find(checks, "gpu0_throttle").status, Status::ok);
  const auto& xid = find(checks, "gpu_xid");
  EXPECT_EQ(xid.status, Status::warn);
  EXPECT_NE(xid.found.find("XID 94 on GPU 0 during this check"), std::string::npos) << xid.found;
  EXPECT_NE(xid.found.find("2 XID errors in the kernel log, the last XID 79 on PCI 0000:86:00"), std::string::npos)
      << xid.found;
  EXPECT_NE(xid.fix.find("XID catalog"), std::string::npos);
}

TEST(DoctorGpuChecks, LockedClocksAndACleanLogAreOk) {
  FakeGpu machine;
  write(machine.paths.kmsg, "6,1,1,-;nothing from the driver\n");
  const ScopedEnv env{{nvml::kLibraryEnv, PERFZERO_FAKE_NVML},
                      {"FAKE_NVML_GPUS", "2"},
                      {"FAKE_NVML_STATE_DIR", machine.dir.path().string()}};
  std::string why;
  {
    const auto lib = nvml::Library::open(why);
    ASSERT_NE(lib, nullptr) << why;
    ASSERT_EQ(lib->lock_clocks(1, nvml::ClockLock::base), "");
  }
  const auto checks = GpuChecks(machine.paths).finish();
  EXPECT_EQ(find(checks, "gpu0_persistence").status, Status::ok);
  EXPECT_EQ(find(checks, "gpu0_clocks").status, Status::info);
  const auto& locked = find(checks, "gpu1_clocks");
  EXPECT_EQ(locked.status, Status::ok);
  EXPECT_NE(locked.found.find("held by a user setting"), std::string::npos) << locked.found;
  EXPECT_NE(locked.found.find("SM at 1590 MHz"), std::string::npos) << locked.found;
  EXPECT_EQ(find(checks, "gpu_xid").status, Status::ok);
}

TEST(DoctorGpuChecks, WhatCannotBeWatchedOrReadIsSaid) {
  FakeGpu machine;  // no kmsg file
  const ScopedEnv env{{nvml::kLibraryEnv, PERFZERO_FAKE_NVML},
                      {"FAKE_NVML_FAIL", "nvmlDeviceRegisterEvents"},
                      {"FAKE_NVML_STATE_DIR", machine.dir.path().string()}};
  const auto checks = GpuChecks(machine.paths).finish();
  const auto& xid = find(checks, "gpu_xid");
  EXPECT_EQ(xid.status, Status::info);
  EXPECT_NE(xid.found.find("NVML events unavailable (GPU 0: nvmlDeviceRegisterEvents(XID): Unknown Error (999))"),
            std::string::npos)
      << xid.found;
  EXPECT_NE(xid.found.find("kernel log unreadable"), std::string::npos) << xid.found;
}

}  // namespace
}  // namespace perfzero::doctor::doctor_gpu_checks_test
