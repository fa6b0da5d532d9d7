#include "monitor/tree_monitor.hpp"

#include <algorithm>
#include <ctime>

#include "monitor/proc_reader.hpp"

namespace perfzero::monitor {

namespace {
double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}
}  // namespace

TreeMonitor::TreeMonitor(pid_t root, std::chrono::milliseconds interval)
    : root_(root), interval_(interval), start_(std::chrono::steady_clock::now()) {
  thread_ = std::thread([this] { run(); });
}

TreeMonitor::~TreeMonitor() {
  if (thread_.joinable()) stop();
}

MonitorResult TreeMonitor::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  return std::move(result_);
}

void TreeMonitor::run() {
  const double cpu_at_start = thread_cpu_seconds();
  std::unique_lock lock(mutex_);
  while (true) {
    lock.unlock();
    take_sample();
    lock.lock();
    if (stopping_) break;
    wake_.wait_for(lock, interval_, [this] { return stopping_; });
    // One more sample after a stop request would only see the reaped tree: stop right away.
    if (stopping_) break;
  }
  result_.monitor_cpu_seconds = thread_cpu_seconds() - cpu_at_start;
}

void TreeMonitor::take_sample() {
  const double ticks = clock_ticks_per_second();
  Sample sample;
  sample.time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // Children the launcher has already reaped are in its cutime/cstime, so the tree's CPU total
  // never drops when a process ends.
  double cpu_ticks = 0;
  if (auto launcher = read_proc_stat(root_)) {
    cpu_ticks += static_cast<double>(launcher->cutime_ticks + launcher->cstime_ticks);
  }
  for (pid_t pid : descendants_of(root_)) {
    const auto stat = read_proc_stat(pid);
    if (!stat) continue;
    cpu_ticks += static_cast<double>(stat->utime_ticks + stat->stime_ticks + stat->cutime_ticks + stat->cstime_ticks);
    if (stat->state == 'Z') continue;  // a zombie holds no memory
    sample.rss += stat->rss_bytes;
    sample.vms += stat->vsize_bytes;
    sample.threads += stat->num_threads;
    sample.processes += 1;
    if (auto hwm = read_vm_hwm_bytes(pid)) result_.max_hwm_process = std::max(result_.max_hwm_process, *hwm);
  }
  const double cpu_seconds = cpu_ticks / ticks;
  cpu_history_.emplace_back(sample.time, cpu_seconds);
  // The newest earlier point at least one window back; the first point if none is that old yet.
  const double window = std::chrono::duration<double>(cpu_window).count();
  auto base = cpu_history_.front();
  for (auto it = cpu_history_.rbegin(); it != cpu_history_.rend(); ++it) {
    if (sample.time - it->first >= window) {
      base = *it;
      break;
    }
  }
  // Older points than the base are never needed again.
  const auto keep_from =
      std::find_if(cpu_history_.begin(), cpu_history_.end(), [&](const auto& p) { return p.first >= base.first; });
  cpu_history_.erase(cpu_history_.begin(), keep_from);
  const double elapsed = sample.time - base.first;
  sample.cpu_percent = elapsed > 0 ? 100.0 * (cpu_seconds - base.second) / elapsed : 0.0;

  result_.tree_cpu_seconds = cpu_seconds;
  result_.max_rss_tree = std::max(result_.max_rss_tree, sample.rss);
  result_.max_vms_tree = std::max(result_.max_vms_tree, sample.vms);
  result_.max_cpu_percent = std::max(result_.max_cpu_percent, sample.cpu_percent);
  result_.max_threads = std::max(result_.max_threads, sample.threads);
  result_.max_processes = std::max(result_.max_processes, sample.processes);
  result_.samples.push_back(sample);
}

}  // namespace perfzero::monitor
