#pragma once
// `perfzero doctor`: is this machine a good place to measure? Each check reads what the kernel
// exposes (paths configurable, so tests read fake trees), says what it found, whether it needs
// fixing, and how to fix it (docs/doctor.md).
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::doctor {

enum class Status { ok, warn, info };  // info: recorded, nothing to fix (or nothing could be read)

struct Check {
  std::string name;  // "cpu_governor", ...
  Status status = Status::info;
  std::string found;  // what the machine has, in words
  std::string fix;    // how to fix it, when status is warn
};

// A check's verdict, with its fix when it warns.
Check ok(std::string name, std::string found);
Check warn(std::string name, std::string found, std::string fix);
Check info(std::string name, std::string found);

struct DoctorPaths {
  std::filesystem::path proc = "/proc";
  std::filesystem::path sys = "/sys";
  std::filesystem::path cgroup = "/sys/fs/cgroup";
  std::filesystem::path kmsg = "/dev/kmsg";  // the kernel log, for the driver's XID errors
  // perf_event_open's errno for a software counter on this process, 0 when it opens; empty: the
  // real call. Tests set it, since what the real call says depends on where they run (a
  // container's seccomp profile refuses it, qemu-user does not implement it).
  std::function<int()> perf_event_open_error{};
};

// The checks that only read files: governor, boost, SMT, ASLR, transparent huge pages, swap,
// perf_event_paranoid, the container's limits.
std::vector<Check> read_checks(const DoctorPaths& paths);
// Steal time and the host's load beside this process, over `window` (/proc/stat twice).
std::vector<Check> load_checks(const DoctorPaths& paths, std::chrono::milliseconds window);

std::string status_name(Status s);
nlohmann::json to_json(const std::vector<Check>& checks);

}  // namespace perfzero::doctor
