#pragma once
// Samples a whole process tree (every descendant of a root) on its own thread.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "monitor/proc_file_cache.hpp"
#include "monitor/proc_reader.hpp"

namespace perfzero::monitor {

struct Sample {
  double time = 0.0;      // seconds since the monitor started
  std::uint64_t rss = 0;  // bytes, summed over the tree
  std::uint64_t vms = 0;
  double cpu_percent = 0.0;  // over the trailing window (see cpu_window), 100 = one core
  std::int64_t threads = 0;
  std::int64_t processes = 0;
};

struct MonitorResult {
  std::vector<Sample> samples;
  std::uint64_t max_rss_tree = 0;  // peak of the summed RSS over samples
  std::uint64_t max_vms_tree = 0;
  std::uint64_t max_hwm_process = 0;  // largest VmHWM of any one process seen
  double max_cpu_percent = 0.0;
  double tree_cpu_seconds = 0.0;  // last sampled user+system of the tree
  std::int64_t max_threads = 0;
  std::int64_t max_processes = 0;
  double monitor_cpu_seconds = 0.0;  // CPU the sampling thread itself used
};

class TreeMonitor {
 public:
  // Samples the descendants of `root` (not `root` itself: it is the launcher), every `interval`.
  TreeMonitor(pid_t root, std::chrono::milliseconds interval);
  ~TreeMonitor();
  TreeMonitor(const TreeMonitor&) = delete;
  TreeMonitor& operator=(const TreeMonitor&) = delete;

  // Takes one last sample, stops the thread and returns everything gathered.
  MonitorResult stop();

  // CPU % at 10 ms ticks is too coarse over short intervals, so it is computed over at least this.
  static constexpr std::chrono::milliseconds cpu_window{100};
  // Slow ticks: VmHWM only grows and the kernel's ru_maxrss covers every reaped process exactly, so
  // the costly /proc/PID/status is read at most this often, and the tree is walked for new processes.
  static constexpr std::chrono::milliseconds hwm_interval{100};

 private:
  void run();
  void take_sample();
  // The tree below root_, reading each process's stat once (callers reuse what was read).
  void discover(pid_t pid, std::vector<ProcStat>& out, int depth);
  // Reads the known processes; false when one has ended (or none is known yet).
  bool read_known(std::vector<ProcStat>& out);
  void children(pid_t pid, std::int64_t threads, std::vector<pid_t>& out);

  pid_t root_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point start_;
  int wake_fd_;  // an eventfd stop() writes to
  MonitorResult result_;
  std::vector<std::pair<double, double>> cpu_history_;  // (time, tree CPU seconds)
  ProcFileCache files_;
  double last_hwm_read_ = -1.0;  // time of the last slow tick
  std::vector<pid_t> known_;     // the tree found by the last walk
  double launcher_reaped_ticks_ = 0;
  double last_cpu_ticks_ = 0;
  std::vector<ProcStat> tree_;  // reused between samples
  std::thread thread_;
};

}  // namespace perfzero::monitor
