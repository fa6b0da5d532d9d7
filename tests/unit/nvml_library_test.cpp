// The NVML loader against the tests' fake libnvidia-ml (tests/fakes/fake_nvml.c): a real dlopen of
// a real shared library; only the GPU behind it is scripted, since none can exist here.
#include "nvml/nvml_library.hpp"

#include <gtest/gtest.h>

#include "nvml/nvml_api.h"
#include "scoped_env.hpp"
#include "sysinfo/system_info.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::nvml::nvml_library_test {
namespace {

using testing::ScopedEnv;

TEST(NvmlLibrary, NoLibraryMeansNoNvmlWithTheLoaderSaying) {
  const ScopedEnv env{{kLibraryEnv, "/nonexistent/libnvidia-ml.so.1"}};
  std::string why;
  EXPECT_EQ(Library::open(why), nullptr);
  EXPECT_NE(why.find("cannot load /nonexistent/libnvidia-ml.so.1"), std::string::npos) << why;
}

TEST(NvmlLibrary, AFailingInitMeansNoNvml) {
  const ScopedEnv env{{kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_INIT_FAIL", "1"}};
  std::string why;
  EXPECT_EQ(Library::open(why), nullptr);
  EXPECT_NE(why.find("nvmlInit_v2 failed: Driver Not Loaded"), std::string::npos) << why;
}

TEST(NvmlLibrary, DescribesEachGpu) {
  const ScopedEnv env{{kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_GPUS", "2"}};
  std::string why;
  const auto lib = Library::open(why);
  ASSERT_NE(lib, nullptr) << why;
  ASSERT_EQ(lib->device_count(), 2U);
  EXPECT_EQ(lib->driver_version(), "580.95.05-fake");
  EXPECT_EQ(lib->cuda_driver_version(), 13000);
  const GpuDescription h100 = lib->describe(0);
  EXPECT_EQ(h100.model, "Fake H100 80GB HBM3");
  EXPECT_EQ(h100.memory_bytes, 80ULL << 30);
  EXPECT_EQ(h100.compute_capability, "9.0");
  EXPECT_EQ(h100.mig_enabled, false);
  EXPECT_EQ(h100.ecc_enabled, true);
  EXPECT_EQ(h100.pcie_generation, 5U);
  EXPECT_EQ(h100.pcie_width, 16U);
  EXPECT_EQ(h100.max_sm_clock_mhz, 1980U);
  EXPECT_EQ(lib->describe(1).compute_capability, "8.0");
  EXPECT_EQ(lib->index_of_pci_bus("0000:01:00.0"), 1U);
  EXPECT_EQ(lib->index_of_pci_bus("0000:07:00.0"), std::nullopt);
  // The fake has only the pre-r535 name of the throttle call: the loader falls back to it.
  EXPECT_TRUE(lib->missing_symbols().empty()) << lib->missing_symbols().front();
}

TEST(NvmlLibrary, ReadsRampingValuesAndTheThrottleFromItsSample) {
  const ScopedEnv env{{kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_THROTTLE_AT", "2"}};
  std::string why;
  const auto lib = Library::open(why);
  ASSERT_NE(lib, nullptr) << why;
  std::vector<std::string> errors;
  std::vector<GpuReading> r;
  for (int i = 0; i < 4; ++i) r.push_back(lib->read(0, errors));
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(r[0].sm_util_percent, 0.0);
  EXPECT_EQ(r[3].sm_util_percent, 60.0);
  EXPECT_EQ(r[1].power_watts, 110.0);  // milliwatts converted
  EXPECT_EQ(r[1].sm_clock_mhz, 1980.0);
  EXPECT_EQ(r[2].sm_clock_mhz, 1200.0);
  EXPECT_EQ(r[1].throttle_reasons, 0U);
  EXPECT_EQ(r[2].throttle_reasons, nvmlClocksThrottleReasonSwThermalSlowdown);
  EXPECT_EQ(r[0].pcie_rx_mb_per_s, 2.0);  // KB/s converted
}

TEST(NvmlLibrary, AFailingCallCostsOnlyItsValueAndSaysWhich) {
  const ScopedEnv env{{kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_FAIL", "nvmlDeviceGetPowerUsage"}};
  std::string why;
  const auto lib = Library::open(why);
  ASSERT_NE(lib, nullptr) << why;
  std::vector<std::string> errors;
  const GpuReading r = lib->read(0, errors);
  EXPECT_FALSE(r.power_watts.has_value());
  EXPECT_TRUE(r.sm_util_percent.has_value());
  ASSERT_EQ(errors.size(), 1U);
  EXPECT_EQ(errors[0], "nvmlDeviceGetPowerUsage on GPU 0: Unknown Error (999)");
}

TEST(NvmlLibrary, AMissingSymbolLeavesItsReadingEmpty) {
  const ScopedEnv env{{kLibraryEnv, PERFZERO_FAKE_NVML_NO_PCIE}};
  std::string why;
  const auto lib = Library::open(why);
  ASSERT_NE(lib, nullptr) << why;
  EXPECT_EQ(lib->missing_symbols(), std::vector<std::string>{"nvmlDeviceGetPcieThroughput"});
  std::vector<std::string> errors;
  const GpuReading r = lib->read(0, errors);
  EXPECT_FALSE(r.pcie_tx_mb_per_s.has_value());
  EXPECT_TRUE(r.temperature_c.has_value());
  EXPECT_TRUE(errors.empty());
}

TEST(NvmlLibrary, ThrottleBitsThatMeanASlowerGpu) {
  EXPECT_FALSE(is_performance_throttle(0));
  EXPECT_FALSE(is_performance_throttle(nvmlClocksThrottleReasonGpuIdle));
  EXPECT_FALSE(is_performance_throttle(nvmlClocksThrottleReasonApplicationsClocksSetting));
  EXPECT_TRUE(is_performance_throttle(nvmlClocksThrottleReasonSwPowerCap));
  EXPECT_TRUE(is_performance_throttle(nvmlClocksThrottleReasonHwThermalSlowdown | nvmlClocksThrottleReasonGpuIdle));
  EXPECT_EQ(throttle_reason_names(nvmlClocksThrottleReasonSwPowerCap | nvmlClocksThrottleReasonSwThermalSlowdown),
            "sw_power_cap,sw_thermal");
}

TEST(NvmlLibrary, SystemInfoFillsPerfZerosAcceleratorKeysFromIt) {
  const ScopedEnv env{{kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_GPUS", "2"}};
  const sysinfo::AcceleratorInfo info = sysinfo::read_accelerators();
  EXPECT_EQ(info.source, "nvml");
  EXPECT_EQ(info.driver_version, "580.95.05-fake");
  EXPECT_EQ(info.cuda_driver_version, "13.0");
  ASSERT_EQ(info.devices.size(), 2U);
  EXPECT_EQ(info.devices[1].model, "Fake A100-SXM4-40GB");
  EXPECT_EQ(info.devices[0].pcie_generation, 5U);
}

TEST(NvmlLibrary, LocksToBaseOrMaxAndResetsWhatItLocked) {
  testing::TempDir dir;
  const ScopedEnv env{{kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_STATE_DIR", dir.path().string()}};
  std::string why;
  const auto lib = Library::open(why);
  ASSERT_NE(lib, nullptr) << why;
  EXPECT_EQ(lib->settings(0).clocks_held_by_setting, false);
  EXPECT_EQ(lib->settings(0).persistence_mode, true);
  ASSERT_EQ(lib->lock_clocks(0, ClockLock::base), "");
  std::vector<std::string> errors;
  EXPECT_EQ(lib->read(0, errors).sm_clock_mhz, 1590.0);  // NVML's TDP limit, in the fake 1590 MHz
  EXPECT_EQ(lib->settings(0).clocks_held_by_setting, true);
  ASSERT_EQ(lib->lock_clocks(0, ClockLock::max), "");
  EXPECT_EQ(lib->read(0, errors).sm_clock_mhz, 1980.0);  // the highest SM clock, as both bounds
  ASSERT_EQ(lib->reset_locked_clocks(0), "");
  EXPECT_EQ(lib->settings(0).clocks_held_by_setting, false);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "gpu0.locked"));
}

TEST(NvmlLibrary, ALockNvmlRefusesSaysWhyAndThatItNeedsRoot) {
  const ScopedEnv env{{kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_LOCK_DENIED", "1"}};
  std::string why;
  const auto lib = Library::open(why);
  ASSERT_NE(lib, nullptr) << why;
  EXPECT_EQ(lib->lock_clocks(0, ClockLock::base),
            "GPU 0: nvmlDeviceSetGpuLockedClocks: Insufficient Permissions (4): locking clocks needs root");
}

TEST(NvmlLibrary, XidEventsAreTakenOnceEach) {
  const ScopedEnv env{{kLibraryEnv, PERFZERO_FAKE_NVML}, {"FAKE_NVML_XID", "79"}};
  std::string why;
  const auto lib = Library::open(why);
  ASSERT_NE(lib, nullptr) << why;
  EXPECT_TRUE(lib->take_xids().empty()) << "nothing is heard before watching";
  ASSERT_EQ(lib->watch_xids(), "");
  const auto events = lib->take_xids();
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].gpu, 0U);
  EXPECT_EQ(events[0].xid, 79U);
  EXPECT_TRUE(lib->take_xids().empty());
}

}  // namespace
}  // namespace perfzero::nvml::nvml_library_test
