#pragma once
// Host load: how busy the whole machine was while a trial ran, minus the trial's own process tree
// and the harness itself. A trial that shared the CPUs with something else is flagged host_busy in
// its report and in the summaries, so a slow outlier explains itself (docs/monitoring.md).
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "samplers/sampler.hpp"

namespace perfzero::samplers {

class LoadTimeline;

// The first line of /proc/stat, in clock ticks.
struct CpuTimes {
  double busy = 0;   // user + nice + system + irq + softirq
  double steal = 0;  // taken by the hypervisor for other guests
  double total = 0;  // everything, idle and iowait included
};

std::optional<CpuTimes> parse_proc_stat_cpu_line(std::string_view text);

struct HostLoadVerdict {
  double window_seconds = 0;
  double host_busy_cpus = 0;   // average CPUs busy (or stolen) over the window, everything counted
  double other_busy_cpus = 0;  // the same without the trial's tree and the harness
  double steal_percent = 0;
  double threshold_cpus = 0;
  bool judged = false;  // false when the window is too short for tick-based accounting
  bool busy = false;
  // Short windows are judged over a window reaching back before the trial, and by how long the
  // method waited for a CPU (judge_run_queue).
  std::optional<double> run_queue_seconds;
  std::string judged_by;  // "host load", "run queue", "recent host load", or "" when not judged
};

// `threshold_cpus`: how many CPUs' worth of others' work make the host busy (--host_busy_threshold, the
// suite's host_busy_threshold); none: the default, a quarter of a CPU or 2 % of a large machine's.
HostLoadVerdict judge_host_load(const CpuTimes& before, const CpuTimes& after, double window_seconds,
                                double own_cpu_seconds, int logical_cpus, double ticks_per_second,
                                std::optional<double> threshold_cpus = std::nullopt);
double default_busy_threshold_cpus(int logical_cpus);

// A trial too short for tick-based accounting (v not judged) is judged two ways, busy when either says so:
// - its own run-queue wait: its processes waited for a CPU for more than kRunQueueShare of its wall
//   time (and at least 1 ms), which only happens when something else held the CPUs it could use;
// - `recent`: the host's load over the last kMinWindowSeconds or more (the trial and the moments
//   before it), the harness's own CPU taken out, since a neighbour on a hyperthread sibling slows a
//   method without making it wait.
// A long trial keeps its own verdict; its run-queue wait is recorded beside it.
void judge_short_trial(HostLoadVerdict& v, const std::optional<HostLoadVerdict>& recent,
                       std::optional<double> run_queue_seconds, double wall_seconds);
inline constexpr double kRunQueueShare = 0.10;

// Processes of the trial that ran on this machine outside its tree used `cpu_seconds`: ranks that an
// engine's daemon started (Slurm's slurmstepd) on the host perfzero runs on, or on hosts that are
// namespaces or containers of this machine. They are the method's own, not a neighbour's: a verdict
// judged on the trial's own window ("host load") is judged again without them, and its host_busy
// flag follows. Short trials' verdicts (judged on a wider window or the run queue) are left as they are.
void count_as_own(SamplerOutput& host_load, double cpu_seconds, double ticks_per_second);

class HostLoadSampler : public Sampler {
 public:
  explicit HostLoadSampler(std::string proc_stat_path = "/proc/stat", LoadTimeline* timeline = nullptr,
                           std::optional<double> threshold_cpus = std::nullopt);
  std::string name() const override { return "host_load"; }
  std::chrono::milliseconds min_period() const override { return std::chrono::milliseconds(100); }
  void start(pid_t root) override;
  void sample(double time) override;
  SamplerOutput finish(const TrialFacts& facts) override;

  // Trials shorter than this are not judged: 10 ms ticks on every CPU blur a shorter window.
  static constexpr double kMinWindowSeconds = 0.2;
  // A reading older than this says nothing about now: a short trial never reaches back further.
  static constexpr std::chrono::seconds kStaleAfter{2};
  // A reading this young (the last trial's end, just before) starts the next trial's window.
  static constexpr std::chrono::milliseconds kReuseReadingWithin{5};

 private:
  std::optional<CpuTimes> read() const;
  // Before the run's first trial (or the first after a pause), so it has a window to reach back over.
  void take_first_reading();

  double own_cpu_seconds() const;

  std::string path_;
  LoadTimeline* timeline_;  // the run's shared one unless a test gives its own
  std::optional<double> threshold_cpus_;
  int logical_cpus_ = 1;
  std::optional<CpuTimes> first_;
  std::optional<CpuTimes> previous_;
  std::chrono::steady_clock::time_point started_;
  double harness_cpu_at_start_ = 0;
  results::TimeSeries series_;
};

}  // namespace perfzero::samplers
