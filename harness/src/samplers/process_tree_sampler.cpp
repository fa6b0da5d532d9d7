#include "samplers/process_tree_sampler.hpp"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>

namespace perfzero::samplers {

using procfs::ProcFile;
using procfs::ProcStat;

void ProcessTreeSampler::children(pid_t pid, std::int64_t threads, std::vector<pid_t>& out) {
  if (threads <= 1) {
    // One thread: its children file is the only one, no directory listing needed.
    if (auto text = files_.read(pid, ProcFile::children)) procfs::parse_pid_list(*text, out);
    return;
  }
  const std::string task_dir = "/proc/" + std::to_string(pid) + "/task";
  DIR* dir = ::opendir(task_dir.c_str());
  if (dir == nullptr) return;
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    const auto tid = static_cast<pid_t>(std::strtol(entry->d_name, nullptr, 10));
    if (auto text = files_.read(tid, ProcFile::children)) procfs::parse_pid_list(*text, out);
  }
  ::closedir(dir);
}

void ProcessTreeSampler::discover(pid_t pid, std::vector<ProcStat>& out, int depth) {
  // Depth bound: a fork bomb must not turn the monitor into a stack overflow.
  if (depth > 64) return;
  const auto text = files_.read(pid, ProcFile::stat);
  if (!text) return;
  const auto stat = procfs::parse_proc_stat(*text);
  if (!stat) return;
  out.push_back(*stat);
  std::vector<pid_t> kids;
  children(pid, stat->num_threads, kids);
  for (pid_t child : kids) discover(child, out, depth + 1);
}

bool ProcessTreeSampler::read_known(std::vector<ProcStat>& out) {
  for (pid_t pid : known_) {
    const auto text = files_.read(pid, ProcFile::stat);
    const auto stat = text ? procfs::parse_proc_stat(*text) : std::nullopt;
    if (!stat) return false;  // it ended: the tree must be walked again
    out.push_back(*stat);
  }
  return !known_.empty();
}

void ProcessTreeSampler::start(pid_t root) {
  root_ = root;
  if (auto text = root_files_->read(root_, ProcFile::stat)) {
    if (auto launcher = procfs::parse_proc_stat(*text)) {
      launcher_reaped_before_ = static_cast<double>(launcher->cutime_ticks + launcher->cstime_ticks);
    }
  }
}

void ProcessTreeSampler::walk_tree(std::vector<ProcStat>& tree) {
  if (auto text = root_files_->read(root_, ProcFile::stat)) {
    if (auto launcher = procfs::parse_proc_stat(*text)) {
      launcher_reaped_ticks_ =
          static_cast<double>(launcher->cutime_ticks + launcher->cstime_ticks) - launcher_reaped_before_;
    }
  }
  std::vector<pid_t> top;
  if (auto text = root_files_->read(root_, ProcFile::children)) procfs::parse_pid_list(*text, top);
  tree.clear();
  for (pid_t pid : top) discover(pid, tree, 1);
  known_.clear();
  for (const auto& stat : tree) known_.push_back(stat.pid);
}

double ProcessTreeSampler::cpu_percent_at(double time, double cpu_seconds) {
  cpu_history_.emplace_back(time, cpu_seconds);
  // The newest earlier point at least one window back; the first point if none is that old yet.
  const double window = std::chrono::duration<double>(cpu_window).count();
  auto base = cpu_history_.front();
  for (auto it = cpu_history_.rbegin(); it != cpu_history_.rend(); ++it) {
    if (time - it->first >= window) {
      base = *it;
      break;
    }
  }
  // Older points than the base are never needed again.
  const auto keep_from =
      std::find_if(cpu_history_.begin(), cpu_history_.end(), [&](const auto& p) { return p.first >= base.first; });
  cpu_history_.erase(cpu_history_.begin(), keep_from);
  const double elapsed = time - base.first;
  return elapsed > 0 ? 100.0 * (cpu_seconds - base.second) / elapsed : 0.0;
}

void ProcessTreeSampler::sample(double time) {
  TreeSample sample;
  sample.time = time;
  const double slow_period = std::chrono::duration<double>(hwm_interval).count();
  const bool slow_tick = last_hwm_read_ < 0 || time - last_hwm_read_ >= slow_period;
  if (slow_tick) last_hwm_read_ = time;

  // Walking the tree (children files) finds new processes; on fast ticks only the processes already
  // known are read, one pread each. The walk happens on slow ticks and whenever a known process ended.
  std::vector<ProcStat>& tree = tree_;
  tree.clear();
  if (slow_tick || !read_known(tree)) walk_tree(tree);
  if (tree.empty() && !seen_a_process_) {
    last_hwm_read_ = -1.0;  // walk again on the next (quick) sample
    return;
  }
  seen_a_process_ = true;
  // CPU of processes the launcher reaped is in its cutime/cstime.
  double cpu_ticks = launcher_reaped_ticks_;
  for (const ProcStat& stat : tree) {
    cpu_ticks += static_cast<double>(stat.utime_ticks + stat.stime_ticks + stat.cutime_ticks + stat.cstime_ticks);
    if (stat.state == 'Z') continue;  // a zombie holds no memory
    sample.rss += stat.rss_bytes;
    sample.vms += stat.vsize_bytes;
    sample.threads += stat.num_threads;
    sample.processes += 1;
    if (slow_tick) {
      if (auto status = files_.read(stat.pid, ProcFile::status)) {
        if (auto kib = procfs::parse_status_kib(*status, "VmHWM")) {
          result_.max_hwm_process = std::max(result_.max_hwm_process, *kib * 1024);
        }
      }
    }
  }
  // Long enough that a file read once per slow tick stays open between reads.
  const double tick = std::max(time - last_sample_time_, 0.001);
  last_sample_time_ = time;
  files_.forget_unused(static_cast<int>(2 * slow_period / tick) + 2);
  // A tree's CPU total only grows; between launcher reads a reaped process's time is briefly
  // uncounted, which must not read as negative CPU.
  cpu_ticks = std::max(cpu_ticks, last_cpu_ticks_);
  last_cpu_ticks_ = cpu_ticks;
  const double cpu_seconds = cpu_ticks / procfs::clock_ticks_per_second();
  sample.cpu_percent = cpu_percent_at(time, cpu_seconds);

  result_.tree_cpu_seconds = cpu_seconds;
  result_.max_rss_tree = std::max(result_.max_rss_tree, sample.rss);
  result_.max_vms_tree = std::max(result_.max_vms_tree, sample.vms);
  result_.max_cpu_percent = std::max(result_.max_cpu_percent, sample.cpu_percent);
  result_.max_threads = std::max(result_.max_threads, sample.threads);
  result_.max_processes = std::max(result_.max_processes, sample.processes);
  result_.samples.push_back(sample);
}

SamplerOutput ProcessTreeSampler::finish(const TrialFacts& facts) {
  SamplerOutput out;
  // Member by member: a braced list builds every value twice, and this runs after every trial.
  nlohmann::json& summary = out.summary;
  summary["samples"] = result_.samples.size();
  summary["max_rss_tree"] = result_.max_rss_tree;
  summary["max_vms_tree"] = result_.max_vms_tree;
  summary["max_hwm_process"] = result_.max_hwm_process;
  summary["max_cpu_percent"] = result_.max_cpu_percent;
  summary["max_threads"] = result_.max_threads;
  summary["max_processes"] = result_.max_processes;
  out.series.sampler = name();
  out.series.columns = {"time", "rss", "vms", "cpu_percent", "threads", "processes"};
  out.series.rows.reserve(result_.samples.size());
  for (const auto& s : result_.samples) {
    out.series.rows.push_back({s.time, static_cast<double>(s.rss), static_cast<double>(s.vms), s.cpu_percent,
                               static_cast<double>(s.threads), static_cast<double>(s.processes)});
  }
  // A tree gone before the monitor thread woke has no sample. PerfZero's plot script then has no
  // data at all, so the trial gets one line at its end from the kernel's accounting: the peak RSS
  // and the CPU over the wall time; what nobody saw (vms, threads, processes) is null (NaN).
  if (out.series.rows.empty() && facts.max_rss_bytes && facts.tree_cpu_seconds && facts.wall_seconds > 0) {
    const double none = std::numeric_limits<double>::quiet_NaN();
    out.series.rows.push_back({facts.wall_seconds, *facts.max_rss_bytes, none,
                               100.0 * *facts.tree_cpu_seconds / facts.wall_seconds, none, none});
    out.summary["kernel_sample"] = true;
  }
  return out;
}

}  // namespace perfzero::samplers
