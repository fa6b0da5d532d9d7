#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <fstream>

#include "common/files.hpp"
#include "common/text.hpp"
#include "sysinfo/system_info.hpp"

namespace perfzero::sysinfo {

namespace {

std::uint64_t memory_total(const Paths& paths) {
  std::ifstream in(paths.proc / "meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemTotal:") return kib * 1024;
  }
  return 0;
}

std::string os_name(const Paths& paths) {
  std::ifstream in(paths.os_release);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string value = line.substr(12);
      if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
      return value;
    }
  }
  return "unknown";
}

// Evidence, not proof: each runtime leaves its own marker.
std::string container_evidence(const Paths& paths) {
  if (std::filesystem::exists(paths.root / ".dockerenv")) return "/.dockerenv";
  if (std::filesystem::exists(paths.root / "run" / ".containerenv")) return "/run/.containerenv";
  if (auto cgroups = files::read_text(paths.proc / "1" / "cgroup")) {
    for (const char* marker : {"docker", "kubepods", "containerd", "libpod", "lxc"}) {
      if (cgroups->find(marker) != std::string::npos) return std::string("/proc/1/cgroup mentions ") + marker;
    }
  }
  return "";
}

int affinity_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof(set), &set) != 0) return static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  return CPU_COUNT(&set);
}

}  // namespace

SystemInfo collect_system_info(const Paths& paths) {
  SystemInfo info;
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0) info.hostname = host.data();
  utsname uts{};
  if (::uname(&uts) == 0) info.kernel = uts.release;
  info.os = os_name(paths);
  info.cpu = read_cpu_info(paths);
  info.memory_total_bytes = memory_total(paths);
  info.cgroup = read_cgroup_limits(paths);
  info.affinity_cpus = affinity_cpu_count();
  info.effective_vcpus = info.affinity_cpus;
  if (info.cgroup.cpu_quota_cpus && *info.cgroup.cpu_quota_cpus < info.effective_vcpus) {
    info.effective_vcpus = *info.cgroup.cpu_quota_cpus;
  }
  info.ocpus = ocpus_for(info.cpu, info.cpu.logical_cpus);
  const bool arm = info.cpu.architecture == "aarch64";
  info.ocpu_rule = arm ? "Arm: 1 OCPU = 1 vCPU" : "x86: 1 OCPU = 1 physical core (threads_per_core vCPUs)";
  info.container_evidence = container_evidence(paths);
  info.in_container = !info.container_evidence.empty();
  info.cloud = read_cloud_info(paths.dmi);
  info.accelerators = read_accelerators();
  return info;
}

}  // namespace perfzero::sysinfo
