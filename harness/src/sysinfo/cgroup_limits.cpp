#include <fstream>
#include <limits>
#include <map>

#include "common/files.hpp"
#include "common/text.hpp"
#include "sysinfo/system_info.hpp"

namespace perfzero::sysinfo {

namespace {

// The directories from the controller's root down to this process's own cgroup; a limit anywhere
// on the way applies, so the smallest wins.
std::vector<std::filesystem::path> hierarchy(const std::filesystem::path& controller_root, const std::string& own) {
  std::vector<std::filesystem::path> dirs{controller_root};
  std::filesystem::path current = controller_root;
  for (const auto& part : text::split(own, '/')) {
    if (part.empty()) continue;
    current /= part;
    dirs.push_back(current);
  }
  return dirs;
}

// controller -> path from /proc/self/cgroup ("" is the v2 unified entry).
std::map<std::string, std::string> own_cgroups(const Paths& paths) {
  std::map<std::string, std::string> out;
  std::ifstream in(paths.proc / "self" / "cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty()) out[""] = path;
    for (const auto& c : text::split(controllers, ',')) {
      if (!c.empty()) out[c] = path;
    }
  }
  return out;
}

std::optional<std::uint64_t> to_u64(const std::string& s) {
  try {
    std::size_t used = 0;
    const auto v = std::stoull(s, &used);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

CgroupLimits read_cgroup_limits(const Paths& paths) {
  CgroupLimits limits;
  const auto own = own_cgroups(paths);
  auto own_path = [&](const std::string& controller) {
    auto it = own.find(controller);
    return it == own.end() ? std::string() : it->second;
  };
  const bool v1 = std::filesystem::is_directory(paths.cgroup / "memory") ||
                  std::filesystem::is_directory(paths.cgroup / "cpu") ||
                  std::filesystem::is_directory(paths.cgroup / "cpu,cpuacct");
  const bool v2 = !v1 && std::filesystem::exists(paths.cgroup / "cgroup.controllers");
  // v1 reports "no limit" as a huge page-aligned number, not as a word.
  constexpr std::uint64_t kUnlimitedAbove = std::uint64_t{1} << 60;

  if (v1) {
    limits.version = "v1";
    std::filesystem::path cpu_root = paths.cgroup / "cpu";
    if (!std::filesystem::is_directory(cpu_root)) cpu_root = paths.cgroup / "cpu,cpuacct";
    for (const auto& dir : hierarchy(cpu_root, own_path("cpu"))) {
      const auto quota = files::read_line(dir / "cpu.cfs_quota_us");
      const auto period = files::read_line(dir / "cpu.cfs_period_us");
      if (!quota || !period || quota->empty() || (*quota)[0] == '-') continue;
      const auto q = to_u64(*quota);
      const auto p = to_u64(*period);
      if (!q || !p || *p == 0) continue;
      const double cpus = static_cast<double>(*q) / static_cast<double>(*p);
      if (!limits.cpu_quota_cpus || cpus < *limits.cpu_quota_cpus) limits.cpu_quota_cpus = cpus;
    }
    for (const auto& dir : hierarchy(paths.cgroup / "memory", own_path("memory"))) {
      const auto value = files::read_line(dir / "memory.limit_in_bytes");
      const auto bytes = value ? to_u64(*value) : std::nullopt;
      if (!bytes || *bytes >= kUnlimitedAbove) continue;
      if (!limits.memory_limit_bytes || *bytes < *limits.memory_limit_bytes) limits.memory_limit_bytes = *bytes;
    }
  } else if (v2) {
    limits.version = "v2";
    for (const auto& dir : hierarchy(paths.cgroup, own_path(""))) {
      if (const auto cpu_max = files::read_line(dir / "cpu.max")) {
        const auto parts = text::split(*cpu_max, ' ');
        if (parts.size() == 2 && parts[0] != "max") {
          const auto q = to_u64(parts[0]);
          const auto p = to_u64(parts[1]);
          if (q && p && *p > 0) {
            const double cpus = static_cast<double>(*q) / static_cast<double>(*p);
            if (!limits.cpu_quota_cpus || cpus < *limits.cpu_quota_cpus) limits.cpu_quota_cpus = cpus;
          }
        }
      }
      if (const auto mem = files::read_line(dir / "memory.max")) {
        const auto bytes = to_u64(*mem);
        if (bytes && (!limits.memory_limit_bytes || *bytes < *limits.memory_limit_bytes))
          limits.memory_limit_bytes = bytes;
      }
    }
  }
  return limits;
}

}  // namespace perfzero::sysinfo
