#pragma once
// Reads the few /proc fields the monitor needs. Every reader tolerates a process that exits while
// it is read (it returns nullopt), which happens all the time in a live process tree.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace perfzero::procfs {

struct ProcStat {
  pid_t pid = 0;
  pid_t ppid = 0;
  char state = '?';
  std::uint64_t utime_ticks = 0;
  std::uint64_t stime_ticks = 0;
  std::uint64_t cutime_ticks = 0;  // waited-for children, as the kernel accumulates them
  std::uint64_t cstime_ticks = 0;
  std::int64_t num_threads = 0;
  std::uint64_t vsize_bytes = 0;
  std::uint64_t rss_bytes = 0;
};

std::optional<ProcStat> parse_proc_stat(std::string_view text);
std::optional<ProcStat> read_proc_stat(pid_t pid);
// VmHWM: the peak RSS of the process's current program image, kept by the kernel.
std::optional<std::uint64_t> read_vm_hwm_bytes(pid_t pid);
std::optional<std::uint64_t> parse_status_kib(std::string_view status_text, std::string_view key);

// Pids listed in a /proc/PID/task/TID/children file.
void parse_pid_list(std::string_view text, std::vector<pid_t>& out);

// Direct children of every thread of `pid` (from /proc/PID/task/TID/children).
std::vector<pid_t> children_of(pid_t pid);
// Children, grandchildren and so on, parents before children.
std::vector<pid_t> descendants_of(pid_t pid);

double clock_ticks_per_second();
std::uint64_t page_size_bytes();

}  // namespace perfzero::procfs
