#pragma once
// Samples a whole process tree (every descendant of a root) on its own thread.
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

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

 private:
  void run();
  void take_sample();

  pid_t root_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  MonitorResult result_;
  std::vector<std::pair<double, double>> cpu_history_;  // (time, tree CPU seconds)
  std::thread thread_;
};

}  // namespace perfzero::monitor
