#pragma once
// Samples a whole process tree (every descendant of the launcher): RSS, VMS, CPU %, threads and
// processes, PerfZero's process_info.log. Always on; the runner also reads its typed result for
// PerfZero's process_info keys (docs/monitoring.md).
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "procfs/proc_file_cache.hpp"
#include "procfs/proc_reader.hpp"
#include "samplers/sampler.hpp"

namespace perfzero::samplers {

struct TreeSample {
  double time = 0.0;      // seconds since the monitor started
  std::uint64_t rss = 0;  // bytes, summed over the tree
  std::uint64_t vms = 0;
  double cpu_percent = 0.0;  // over the trailing window (see cpu_window), 100 = one core
  std::int64_t threads = 0;
  std::int64_t processes = 0;
};

struct TreeResult {
  std::vector<TreeSample> samples;
  std::uint64_t max_rss_tree = 0;  // peak of the summed RSS over samples
  std::uint64_t max_vms_tree = 0;
  std::uint64_t max_hwm_process = 0;  // largest VmHWM of any one process seen
  double max_cpu_percent = 0.0;
  double tree_cpu_seconds = 0.0;  // last sampled user+system of the tree
  std::int64_t max_threads = 0;
  std::int64_t max_processes = 0;
};

class ProcessTreeSampler : public Sampler {
 public:
  ProcessTreeSampler() = default;
  // `root_files`: where the root's own /proc files are read, kept open by whoever outlives this
  // trial's sampler (the launch server keeps the launcher's for as long as that launcher lives);
  // opening and closing them every trial was 7 % of a short trial's harness time.
  explicit ProcessTreeSampler(procfs::ProcFileCache& root_files) : root_files_(&root_files) {}
  std::string name() const override { return "process_tree"; }
  void start(pid_t root) override;
  void sample(double time) override;
  bool wants_quick_resample() const override { return !seen_a_process_; }
  SamplerOutput finish(const TrialFacts& facts) override;
  const TreeResult& result() const { return result_; }
  // After finish(): hands the result over without copying its samples.
  TreeResult release() { return std::move(result_); }

  // CPU % at 10 ms ticks is too coarse over short intervals, so it is computed over at least this.
  static constexpr std::chrono::milliseconds cpu_window{100};
  // Slow ticks: VmHWM only grows and the kernel's ru_maxrss covers every reaped process exactly, so
  // the costly /proc/PID/status is read at most this often, and the tree is walked for new processes.
  static constexpr std::chrono::milliseconds hwm_interval{100};

 private:
  // The tree below root_, reading each process's stat once (callers reuse what was read).
  void discover(pid_t pid, std::vector<procfs::ProcStat>& out, int depth);
  // Reads the known processes; false when one has ended (or none is known yet).
  bool read_known(std::vector<procfs::ProcStat>& out);
  void children(pid_t pid, std::int64_t threads, std::vector<pid_t>& out);
  void walk_tree(std::vector<procfs::ProcStat>& tree);
  double cpu_percent_at(double time, double cpu_seconds);

  pid_t root_ = -1;
  TreeResult result_;
  std::vector<std::pair<double, double>> cpu_history_;  // (time, tree CPU seconds)
  procfs::ProcFileCache files_;
  procfs::ProcFileCache* root_files_ = &files_;  // the root's stat and children
  double last_hwm_read_ = -1.0;                  // time of the last slow tick
  double last_sample_time_ = 0.0;                // for the cache's idea of "unused"
  std::vector<pid_t> known_;                     // the tree found by the last walk
  double launcher_reaped_ticks_ = 0;
  // The launcher lives for the whole run: what it reaped before this trial is not this trial's CPU.
  double launcher_reaped_before_ = 0;
  double last_cpu_ticks_ = 0;
  std::vector<procfs::ProcStat> tree_;  // reused between samples
  bool seen_a_process_ = false;         // samples before the method was forked are not kept
};

}  // namespace perfzero::samplers
