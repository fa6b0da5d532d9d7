#pragma once
// What the harness records about the machine. Everything is read from local files (procfs, sysfs,
// DMI) or local tools; no network call is made. Paths are configurable so tests read fixtures.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfzero::sysinfo {

struct Paths {
  std::filesystem::path proc = "/proc";
  std::filesystem::path sys_cpu = "/sys/devices/system/cpu";
  std::filesystem::path cgroup = "/sys/fs/cgroup";
  std::filesystem::path dmi = "/sys/class/dmi/id";
  std::filesystem::path os_release = "/etc/os-release";
  std::filesystem::path root = "/";  // where /.dockerenv and /run/.containerenv would be
};

struct CpuInfo {
  std::string model = "unknown";
  std::string vendor = "unknown";
  std::string architecture;  // uname machine: x86_64, aarch64
  int logical_cpus = 0;
  int physical_cores = 0;
  int sockets = 0;
  int threads_per_core = 1;
  std::vector<std::string> flags;  // only those that change which kernels run (avx2, avx512*, amx*, sve...)
  std::string scaling_governor = "unknown";
  std::optional<double> max_mhz;
};

struct CgroupLimits {
  std::string version = "none";                     // "v1", "v2" or "none"
  std::optional<double> cpu_quota_cpus;             // quota / period; nullopt when unlimited
  std::optional<std::uint64_t> memory_limit_bytes;  // nullopt when unlimited
};

struct CloudInfo {
  std::string vendor = "unknown";  // aws, gcp, azure, oci or unknown
  std::string instance_type;       // from DMI where the cloud puts it there (AWS); else empty
  std::string sys_vendor;
  std::string product_name;
};

struct Accelerator {
  std::string model;
  std::uint64_t memory_bytes = 0;
  std::string compute_capability;  // "9.0"; NVML only
  std::optional<bool> mig_enabled;
  std::optional<bool> ecc_enabled;
  std::optional<unsigned> pcie_generation;
  std::optional<unsigned> pcie_width;
  std::optional<unsigned> max_sm_clock_mhz;
};

struct AcceleratorInfo {
  std::string source = "none";  // nvml, nvidia-smi or none
  std::string driver_version;
  std::string cuda_driver_version;  // the CUDA version the driver supports, "13.0" (NVML only)
  std::vector<Accelerator> devices;
};

struct SystemInfo {
  std::string hostname;
  std::string kernel;
  std::string os;
  CpuInfo cpu;
  std::uint64_t memory_total_bytes = 0;
  int affinity_cpus = 0;       // CPUs this process may run on (sched_getaffinity)
  double effective_vcpus = 0;  // min(affinity, cgroup quota)
  double ocpus = 0;            // see ocpu_rule
  std::string ocpu_rule;
  CgroupLimits cgroup;
  bool in_container = false;
  std::string container_evidence;
  CloudInfo cloud;
  AcceleratorInfo accelerators;
};

CpuInfo read_cpu_info(const Paths& paths);
CgroupLimits read_cgroup_limits(const Paths& paths);
CloudInfo read_cloud_info(const std::filesystem::path& dmi_dir);
AcceleratorInfo read_accelerators();
// x86: 1 OCPU = one physical core (threads_per_core vCPUs); Arm: 1 OCPU = 1 vCPU.
double ocpus_for(const CpuInfo& cpu, double vcpus);
SystemInfo collect_system_info(const Paths& paths);

}  // namespace perfzero::sysinfo
