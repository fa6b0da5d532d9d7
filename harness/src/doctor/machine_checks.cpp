#include "doctor/machine_checks.hpp"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "sysinfo/system_info.hpp"

namespace perfzero::doctor {

Check ok(std::string name, std::string found) { return {std::move(name), Status::ok, std::move(found), ""}; }
Check warn(std::string name, std::string found, std::string fix) {
  return {std::move(name), Status::warn, std::move(found), std::move(fix)};
}
Check info(std::string name, std::string found) { return {std::move(name), Status::info, std::move(found), ""}; }

namespace {

std::optional<std::string> first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  return line;
}

Check governor(const DoctorPaths& p) {
  std::set<std::string> seen;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(p.sys / "devices/system/cpu", ec)) {
    if (const auto g = first_line(entry.path() / "cpufreq" / "scaling_governor")) seen.insert(*g);
  }
  if (seen.empty()) return info("cpu_governor", "no cpufreq: the clock is the hypervisor's or the firmware's to set");
  std::string all;
  for (const auto& g : seen) all += (all.empty() ? "" : ", ") + g;
  if (seen.size() == 1 && *seen.begin() == "performance") return ok("cpu_governor", "performance on every CPU");
  return warn("cpu_governor", all,
              "cpupower frequency-set -g performance (or write performance to each CPU's "
              "cpufreq/scaling_governor): other governors change the clock with the load");
}

Check boost(const DoctorPaths& p) {
  if (const auto no_turbo = first_line(p.sys / "devices/system/cpu/intel_pstate/no_turbo")) {
    return *no_turbo == "1" ? ok("cpu_boost", "turbo off (intel_pstate)")
                            : warn("cpu_boost", "turbo on (intel_pstate)",
                                   "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo: turbo's clock depends "
                                   "on temperature and on how many cores are busy");
  }
  if (const auto b = first_line(p.sys / "devices/system/cpu/cpufreq/boost")) {
    return *b == "0" ? ok("cpu_boost", "boost off")
                     : warn("cpu_boost", "boost on",
                            "echo 0 > /sys/devices/system/cpu/cpufreq/boost: a boosted clock depends on "
                            "temperature and on how many cores are busy");
  }
  return info("cpu_boost", "not exposed here (no intel_pstate/no_turbo, no cpufreq/boost)");
}

Check smt(const DoctorPaths& p) {
  const auto active = first_line(p.sys / "devices/system/cpu/smt/active");
  if (!active) return info("smt", "not exposed here");
  return *active == "0" ? ok("smt", "off")
                        : info("smt",
                               "on: two threads of a core share its units; pin a method's threads to "
                               "distinct cores (or echo off > /sys/devices/system/cpu/smt/control) "
                               "when they must not compete");
}

Check aslr(const DoctorPaths& p) {
  const auto v = first_line(p.proc / "sys/kernel/randomize_va_space");
  if (!v) return info("aslr", "not readable");
  return *v == "0" ? ok("aslr", "off: every run lays memory out the same")
                   : info("aslr", fmt::format("on (randomize_va_space {}): memory layout changes from run to run, "
                                              "which can move a tight kernel's timing by a few percent; "
                                              "setarch -R disables it for one command",
                                              *v));
}

Check transparent_huge_pages(const DoctorPaths& p) {
  const auto v = first_line(p.sys / "kernel/mm/transparent_hugepage/enabled");
  if (!v) return info("transparent_huge_pages", "not exposed here");
  const auto open = v->find('[');
  const auto close = v->find(']');
  const std::string mode = open != std::string::npos && close > open ? v->substr(open + 1, close - open - 1) : *v;
  if (mode == "always") {
    return warn("transparent_huge_pages", "always",
                "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled: with always, whether a "
                "buffer gets huge pages (and khugepaged's work) varies from run to run");
  }
  return ok("transparent_huge_pages", mode);
}

Check swap(const DoctorPaths& p) {
  std::ifstream in(p.proc / "meminfo");
  std::string key;
  long long value = 0;
  std::string unit;
  long long total = -1;
  long long free_kib = -1;
  while (in >> key >> value) {
    std::getline(in, unit);
    if (key == "SwapTotal:") total = value;
    if (key == "SwapFree:") free_kib = value;
  }
  if (total < 0) return info("swap", "not readable");
  if (total == 0) return ok("swap", "none");
  const long long used = total - free_kib;
  if (used > 0) {
    return warn("swap", fmt::format("{} MiB of {} MiB in use", used / 1024, total / 1024),
                "free memory or swapoff -a: a method whose pages were swapped out pays to bring them back");
  }
  return info("swap", fmt::format("{} MiB, none in use", total / 1024));
}

// Whether this process may count its own software events at all: a container's seccomp profile
// refuses perf_event_open whatever perf_event_paranoid says.
int perf_open_error() {
  struct perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  const long fd = ::syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return errno;
  ::close(static_cast<int>(fd));
  return 0;
}

Check paranoid(const DoctorPaths& p) {
  const int error = p.perf_event_open_error ? p.perf_event_open_error() : perf_open_error();
  if (error == EPERM || error == EACCES || error == ENOSYS) {
    return warn("perf_event_paranoid",
                fmt::format("perf_event_open refused ({}): the counters fall back on rusage", std::strerror(error)),
                "in a container, docker run --cap-add PERFMON (SYS_ADMIN before Docker 23), or --security-opt "
                "seccomp=unconfined for user space; elsewhere sysctl kernel.perf_event_paranoid=1");
  }
  const auto v = first_line(p.proc / "sys/kernel/perf_event_paranoid");
  if (!v) return info("perf_event_paranoid", "no perf_event_open here: the counters come from rusage");
  const int level = std::atoi(v->c_str());
  if (level <= 1 || ::geteuid() == 0) return ok("perf_event_paranoid", fmt::format("{}: every counter allowed", *v));
  return warn("perf_event_paranoid", fmt::format("{}: counters count user space only", *v),
              "sysctl kernel.perf_event_paranoid=1 (or run as root) for the kernel's share of each counter");
}

// cgroup v1 or v2, the smallest limit on the way from the root to this process's own cgroup: what
// the system info reports too (sysinfo/cgroup_limits.cpp).
Check container_limits(const DoctorPaths& p) {
  sysinfo::Paths paths;
  paths.proc = p.proc;
  paths.cgroup = p.cgroup;
  const sysinfo::CgroupLimits limits = sysinfo::read_cgroup_limits(paths);
  if (limits.version == "none") return info("container_limits", "no cgroup found");
  std::string found = limits.cpu_quota_cpus ? fmt::format("CPU quota {:.2f} CPUs", *limits.cpu_quota_cpus)
                                            : std::string("no CPU quota");
  found += limits.memory_limit_bytes ? fmt::format(", memory limit {} MiB", *limits.memory_limit_bytes >> 20)
                                     : std::string(", no memory limit");
  found += fmt::format(" (cgroup {})", limits.version);
  if (limits.cpu_quota_cpus || limits.memory_limit_bytes) {
    return info("container_limits", found + ": figures are this container's, and reports say so");
  }
  return ok("container_limits", found);
}

struct CpuTimes {
  unsigned long long busy = 0;
  unsigned long long total = 0;
  unsigned long long steal = 0;
};

std::optional<CpuTimes> read_stat(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string cpu;
  unsigned long long v[10] = {};
  if (!(in >> cpu) || cpu != "cpu") return std::nullopt;
  for (auto& x : v) in >> x;
  CpuTimes t;
  for (const auto x : v) t.total += x;
  t.busy = t.total - v[3] - v[4];  // less idle and iowait
  t.steal = v[7];
  return t;
}

}  // namespace

std::string status_name(Status s) {
  switch (s) {
    case Status::ok:
      return "ok";
    case Status::warn:
      return "warn";
    case Status::info:
      return "info";
  }
  return "?";
}

std::vector<Check> read_checks(const DoctorPaths& paths) {
  return {governor(paths), boost(paths),           smt(paths), aslr(paths), transparent_huge_pages(paths), swap(paths),
          paranoid(paths), container_limits(paths)};
}

std::vector<Check> load_checks(const DoctorPaths& paths, std::chrono::milliseconds window) {
  const auto before = read_stat(paths.proc / "stat");
  std::this_thread::sleep_for(window);
  const auto after = read_stat(paths.proc / "stat");
  if (!before || !after || after->total <= before->total) {
    return {info("steal_time", "not readable"), info("host_load", "not readable")};
  }
  const double total = static_cast<double>(after->total - before->total);
  const auto cpus = static_cast<double>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  const double steal = static_cast<double>(after->steal - before->steal) / total;
  const double busy = static_cast<double>(after->busy - before->busy) / total * cpus;
  std::vector<Check> out;
  out.push_back(steal > 0.02
                    ? warn("steal_time", fmt::format("{:.1f} % of CPU time taken by the hypervisor", 100 * steal),
                           "another tenant shares these cores: a dedicated or bare-metal shape, or "
                           "`perfzero ab` to compare under the same conditions")
                    : ok("steal_time", fmt::format("{:.1f} %", 100 * steal)));
  out.push_back(busy > 0.25 ? warn("host_load",
                                   fmt::format("{:.2f} CPUs busy with something else over {} ms", busy, window.count()),
                                   "stop what else runs here (top), or expect trials flagged host_busy")
                            : ok("host_load", fmt::format("{:.2f} CPUs busy over {} ms", busy, window.count())));
  return out;
}

nlohmann::json to_json(const std::vector<Check>& checks) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : checks) {
    nlohmann::json j = {{"name", c.name}, {"status", status_name(c.status)}, {"found", c.found}};
    if (!c.fix.empty()) j["fix"] = c.fix;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace perfzero::doctor
