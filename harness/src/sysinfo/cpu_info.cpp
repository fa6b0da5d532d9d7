#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "common/files.hpp"
#include "common/text.hpp"
#include "sysinfo/system_info.hpp"

namespace perfzero::sysinfo {

namespace {

// Flags that decide which code paths oneDNN, BLAS and our kernels take.
bool notable_flag(const std::string& flag) {
  static const std::set<std::string> exact{"sse4_2", "avx",  "avx2", "fma",  "f16c",    "asimd",
                                           "sve",    "sve2", "bf16", "i8mm", "asimddp", "sme"};
  return exact.count(flag) != 0 || flag.rfind("avx512", 0) == 0 || flag.rfind("amx", 0) == 0 ||
         flag.rfind("avx_vnni", 0) == 0;
}

std::string arm_model(const std::string& implementer, const std::string& part) {
  // The few server cores users meet on clouds; lscpu has the full table.
  static const std::vector<std::tuple<std::string, std::string, std::string>> table{
      {"0x41", "0xd0c", "ARM Neoverse-N1"}, {"0x41", "0xd40", "ARM Neoverse-V1"}, {"0x41", "0xd49", "ARM Neoverse-N2"},
      {"0x41", "0xd4f", "ARM Neoverse-V2"}, {"0xc0", "0xac3", "Ampere-1"},        {"0xc0", "0xac4", "Ampere-1a"},
  };
  for (const auto& [imp, p, name] : table) {
    if (imp == implementer && p == part) return name;
  }
  return "ARM implementer " + implementer + " part " + part;
}

}  // namespace

namespace {

// What /proc/cpuinfo says, before sysfs is asked about the topology.
struct CpuinfoText {
  std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
  std::set<std::string> sockets;
  std::string implementer;  // Arm: CPU implementer and part name the core
  std::string part;
  int processors = 0;
};

void read_cpuinfo_line(const std::string& key, const std::string& value, CpuInfo& cpu, CpuinfoText& seen,
                       std::string& physical_id) {
  if (key == "processor") {
    ++seen.processors;
  } else if (key == "model name" && cpu.model == "unknown") {
    cpu.model = value;
  } else if (key == "vendor_id" && cpu.vendor == "unknown") {
    cpu.vendor = value;
  } else if (key == "physical id") {
    physical_id = value;
    seen.sockets.insert(value);
  } else if (key == "core id") {
    seen.cores.emplace(physical_id, value);
  } else if ((key == "flags" || key == "Features") && cpu.flags.empty()) {
    std::istringstream words(value);
    std::string flag;
    while (words >> flag) {
      if (notable_flag(flag)) cpu.flags.push_back(flag);
    }
  } else if (key == "CPU implementer" && seen.implementer.empty()) {
    seen.implementer = value;
  } else if (key == "CPU part" && seen.part.empty()) {
    seen.part = value;
  }
}

CpuinfoText read_cpuinfo(const std::filesystem::path& path, CpuInfo& cpu) {
  CpuinfoText seen;
  std::ifstream in(path);
  std::string line;
  std::string physical_id;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    read_cpuinfo_line(text::trim(line.substr(0, colon)), text::trim(line.substr(colon + 1)), cpu, seen, physical_id);
  }
  return seen;
}

// Cores and sockets: sysfs topology is there on x86 and Arm alike; cpuinfo lacks core ids on Arm.
void count_cores(const Paths& paths, const CpuinfoText& seen, CpuInfo& cpu) {
  std::set<std::pair<std::string, std::string>> sys_cores;
  std::set<std::string> sys_sockets;
  for (int i = 0; i < cpu.logical_cpus; ++i) {
    const auto dir = paths.sys_cpu / ("cpu" + std::to_string(i)) / "topology";
    const auto package = files::read_line(dir / "physical_package_id");
    const auto core = files::read_line(dir / "core_id");
    if (!package || !core) continue;
    sys_sockets.insert(*package);
    sys_cores.emplace(*package, *core);
  }
  if (!sys_cores.empty()) {
    cpu.physical_cores = static_cast<int>(sys_cores.size());
    cpu.sockets = static_cast<int>(sys_sockets.size());
  } else {
    cpu.physical_cores = seen.cores.empty() ? cpu.logical_cpus : static_cast<int>(seen.cores.size());
    cpu.sockets = seen.sockets.empty() ? 1 : static_cast<int>(seen.sockets.size());
  }
  if (cpu.physical_cores <= 0) cpu.physical_cores = cpu.logical_cpus;
  cpu.threads_per_core = std::max(1, cpu.logical_cpus / std::max(1, cpu.physical_cores));
}

void read_frequency_policy(const Paths& paths, CpuInfo& cpu) {
  if (auto governor = files::read_line(paths.sys_cpu / "cpu0" / "cpufreq" / "scaling_governor")) {
    cpu.scaling_governor = *governor;
  }
  if (auto khz = files::read_line(paths.sys_cpu / "cpu0" / "cpufreq" / "cpuinfo_max_freq")) {
    try {
      cpu.max_mhz = std::stod(*khz) / 1000.0;
    } catch (const std::exception&) {
      // An unreadable figure is left out, as on VMs that expose no cpufreq.
    }
  }
}

}  // namespace

CpuInfo read_cpu_info(const Paths& paths) {
  CpuInfo cpu;
  utsname uts{};
  if (::uname(&uts) == 0) cpu.architecture = uts.machine;
  const CpuinfoText seen = read_cpuinfo(paths.proc / "cpuinfo", cpu);
  if (cpu.model == "unknown" && !seen.implementer.empty()) {
    cpu.model = arm_model(seen.implementer, seen.part);
    cpu.vendor = seen.implementer == "0xc0" ? "Ampere" : "ARM";
  }
  cpu.logical_cpus = seen.processors > 0 ? seen.processors : static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  count_cores(paths, seen, cpu);
  read_frequency_policy(paths, cpu);
  return cpu;
}

double ocpus_for(const CpuInfo& cpu, double vcpus) {
  const bool arm = cpu.architecture == "aarch64" || cpu.architecture.rfind("arm", 0) == 0;
  return arm ? vcpus : vcpus / std::max(1, cpu.threads_per_core);
}

}  // namespace perfzero::sysinfo
