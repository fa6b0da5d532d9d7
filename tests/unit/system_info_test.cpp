#include "sysinfo/system_info.hpp"

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::sysinfo::system_info_test {
namespace {

const std::filesystem::path kFixtures = PERFZERO_FIXTURES_DIR;

TEST(CloudInfo, RecognisesEachCloudFromItsDmiFiles) {
  const auto aws = read_cloud_info(kFixtures / "dmi" / "aws");
  EXPECT_EQ(aws.vendor, "aws");
  EXPECT_EQ(aws.instance_type, "m6i.large");
  EXPECT_EQ(read_cloud_info(kFixtures / "dmi" / "gcp").vendor, "gcp");
  EXPECT_EQ(read_cloud_info(kFixtures / "dmi" / "azure").vendor, "azure");
  const auto oci = read_cloud_info(kFixtures / "dmi" / "oci");
  EXPECT_EQ(oci.vendor, "oci");
  EXPECT_EQ(oci.instance_type, "");  // OCI's DMI does not name the shape
  EXPECT_EQ(read_cloud_info(kFixtures / "dmi" / "none").vendor, "unknown");
  EXPECT_EQ(read_cloud_info(kFixtures / "dmi" / "does-not-exist").vendor, "unknown");
}

Paths cgroup_paths(const std::string& fixture) {
  Paths p;
  p.proc = kFixtures / "cgroup" / fixture / "proc";
  p.cgroup = kFixtures / "cgroup" / fixture / "sys";
  return p;
}

TEST(CgroupLimits, V1TakesTheSmallestLimitOnThePathToOurCgroup) {
  const auto limits = read_cgroup_limits(cgroup_paths("v1_limited"));
  EXPECT_EQ(limits.version, "v1");
  ASSERT_TRUE(limits.cpu_quota_cpus.has_value());
  EXPECT_DOUBLE_EQ(*limits.cpu_quota_cpus, 1.5);
  ASSERT_TRUE(limits.memory_limit_bytes.has_value());
  EXPECT_EQ(*limits.memory_limit_bytes, 1073741824U);
}

TEST(CgroupLimits, V1UnlimitedReadsAsNoLimit) {
  const auto limits = read_cgroup_limits(cgroup_paths("v1_unlimited"));
  EXPECT_EQ(limits.version, "v1");
  EXPECT_FALSE(limits.cpu_quota_cpus.has_value());
  EXPECT_FALSE(limits.memory_limit_bytes.has_value());
}

TEST(CgroupLimits, V2ReadsCpuMaxAndMemoryMax) {
  const auto limits = read_cgroup_limits(cgroup_paths("v2_limited"));
  EXPECT_EQ(limits.version, "v2");
  ASSERT_TRUE(limits.cpu_quota_cpus.has_value());
  EXPECT_DOUBLE_EQ(*limits.cpu_quota_cpus, 2.0);
  EXPECT_EQ(limits.memory_limit_bytes.value_or(0), 536870912U);
}

TEST(CpuInfo, CountsSocketsCoresAndThreadsFromCpuinfo) {
  Paths p;
  p.proc = kFixtures / "cpu" / "x86_2socket_ht" / "proc";
  p.sys_cpu = kFixtures / "cpu" / "no-sysfs";
  const auto cpu = read_cpu_info(p);
  EXPECT_EQ(cpu.model, "Intel(R) Xeon(R) Platinum 8167M CPU @ 2.00GHz");
  EXPECT_EQ(cpu.logical_cpus, 8);
  EXPECT_EQ(cpu.physical_cores, 4);
  EXPECT_EQ(cpu.sockets, 2);
  EXPECT_EQ(cpu.threads_per_core, 2);
  const std::vector<std::string> expected{"sse4_2",   "avx",         "avx2",     "fma",     "avx512f",
                                          "avx512bw", "avx512_vnni", "amx_tile", "amx_bf16"};
  EXPECT_EQ(cpu.flags, expected);
}

TEST(CpuInfo, NamesArmCoresFromImplementerAndPart) {
  Paths p;
  p.proc = kFixtures / "cpu" / "arm_ampere" / "proc";
  p.sys_cpu = kFixtures / "cpu" / "no-sysfs";
  const auto cpu = read_cpu_info(p);
  EXPECT_EQ(cpu.model, "ARM Neoverse-N1");
  EXPECT_EQ(cpu.logical_cpus, 4);
  EXPECT_EQ(cpu.flags, (std::vector<std::string>{"asimd", "asimddp"}));
}

TEST(Ocpus, X86CountsPhysicalCoresArmCountsVcpus) {
  CpuInfo x86;
  x86.architecture = "x86_64";
  x86.threads_per_core = 2;
  EXPECT_DOUBLE_EQ(ocpus_for(x86, 16), 8);
  CpuInfo arm;
  arm.architecture = "aarch64";
  arm.threads_per_core = 1;
  EXPECT_DOUBLE_EQ(ocpus_for(arm, 16), 16);
}

TEST(SystemInfo, CollectsThisMachineWithoutNetwork) {
  Paths p;
  p.dmi = kFixtures / "dmi" / "oci";
  const auto info = collect_system_info(p);
  EXPECT_GT(info.cpu.logical_cpus, 0);
  EXPECT_GT(info.memory_total_bytes, 0U);
  EXPECT_GT(info.effective_vcpus, 0);
  EXPECT_LE(info.effective_vcpus, info.affinity_cpus);
  EXPECT_EQ(info.cloud.vendor, "oci");
  EXPECT_FALSE(info.kernel.empty());
}

}  // namespace
}  // namespace perfzero::sysinfo::system_info_test
