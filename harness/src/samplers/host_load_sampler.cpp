#include "samplers/host_load_sampler.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <thread>

#include "common/files.hpp"
#include "procfs/proc_reader.hpp"
#include "samplers/load_timeline.hpp"

namespace perfzero::samplers {

namespace {

double process_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

}  // namespace

std::optional<CpuTimes> parse_proc_stat_cpu_line(std::string_view text) {
  if (text.substr(0, 4) != "cpu ") return std::nullopt;
  // The first line only; parsed in place (a stream per reading was most of this function's cost).
  const std::string_view line = text.substr(0, text.find('\n'));
  const char* p = line.data() + 4;
  const char* const end = line.data() + line.size();
  // user nice system idle iowait irq softirq steal [guest guest_nice]; guest time is already in user.
  double v[8] = {};
  for (double& field : v) {
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    const auto [next, error] = std::from_chars(p, end, field);
    if (error != std::errc() || next == p) return std::nullopt;
    p = next;
  }
  CpuTimes t;
  t.busy = v[0] + v[1] + v[2] + v[5] + v[6];
  t.steal = v[7];
  t.total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
  return t;
}

// A quarter of a CPU, or 2 % of a large machine's, where daemons alone use that much.
double default_busy_threshold_cpus(int logical_cpus) { return std::max(0.25, 0.02 * logical_cpus); }

HostLoadVerdict judge_host_load(const CpuTimes& before, const CpuTimes& after, double window_seconds,
                                double own_cpu_seconds, int logical_cpus, double ticks_per_second,
                                std::optional<double> threshold_cpus) {
  HostLoadVerdict v;
  v.window_seconds = window_seconds;
  const double busy_seconds = (after.busy - before.busy + after.steal - before.steal) / ticks_per_second;
  const double total_ticks = after.total - before.total;
  v.steal_percent = total_ticks > 0 ? 100.0 * (after.steal - before.steal) / total_ticks : 0.0;
  if (window_seconds > 0) {
    v.host_busy_cpus = busy_seconds / window_seconds;
    v.other_busy_cpus = std::max(0.0, busy_seconds - own_cpu_seconds) / window_seconds;
  }
  v.threshold_cpus = threshold_cpus.value_or(default_busy_threshold_cpus(logical_cpus));
  v.judged = window_seconds >= HostLoadSampler::kMinWindowSeconds;
  if (v.judged) {
    // Each CPU's counters can be a tick off at either end of the window; the errors are independent.
    const double uncertainty_seconds = 2.0 * std::sqrt(static_cast<double>(logical_cpus)) / ticks_per_second;
    const double others = std::max(0.0, busy_seconds - own_cpu_seconds - uncertainty_seconds) / window_seconds;
    v.busy = others > v.threshold_cpus;
    v.judged_by = "host load";
  }
  return v;
}

void count_as_own(SamplerOutput& host_load, double cpu_seconds, double ticks_per_second) {
  auto& s = host_load.summary;
  if (cpu_seconds <= 0 || !s.is_object() || s.value("judged_by", std::string()) != "host load") return;
  const double window = s.value("window_seconds", 0.0);
  const int logical_cpus = std::max(1, s.value("logical_cpus", 1));
  if (window <= 0) return;
  // The same rule as judge_host_load, with the ranks' CPU taken out of the others' share.
  const double others_seconds = std::max(0.0, s.value("other_busy_cpus", 0.0) * window - cpu_seconds);
  const double uncertainty_seconds = 2.0 * std::sqrt(static_cast<double>(logical_cpus)) / ticks_per_second;
  const bool busy = std::max(0.0, others_seconds - uncertainty_seconds) / window > s.value("threshold_cpus", 0.25);
  s["other_busy_cpus"] = others_seconds / window;
  s["outside_tree_cpu_seconds"] = cpu_seconds;
  s["busy"] = busy;
  auto& flags = host_load.flags;
  flags.erase(std::remove(flags.begin(), flags.end(), "host_busy"), flags.end());
  if (busy) flags.emplace_back("host_busy");
}

void judge_short_trial(HostLoadVerdict& v, const std::optional<HostLoadVerdict>& recent,
                       std::optional<double> run_queue_seconds, double wall_seconds) {
  v.run_queue_seconds = run_queue_seconds;
  if (v.judged) return;
  std::string by;
  if (recent && recent->judged) {
    by = "recent host load";
    v.busy = recent->busy;
    v.other_busy_cpus = recent->other_busy_cpus;
    v.host_busy_cpus = recent->host_busy_cpus;
  }
  if (run_queue_seconds) {
    by += by.empty() ? "run queue" : " and run queue";
    v.busy = v.busy || *run_queue_seconds > std::max(0.001, kRunQueueShare * wall_seconds);
  }
  v.judged = !by.empty();
  v.judged_by = by;
}

HostLoadSampler::HostLoadSampler(std::string proc_stat_path, LoadTimeline* timeline,
                                 std::optional<double> threshold_cpus)
    : path_(std::move(proc_stat_path)),
      timeline_(timeline != nullptr ? timeline : &LoadTimeline::shared()),
      threshold_cpus_(threshold_cpus) {
  // Read once per process: sysconf reads /sys/devices/system/cpu/online on every call, and a
  // sampler is made for every trial.
  static const int online = std::max(1, static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN)));
  logical_cpus_ = online;
  take_first_reading();
}

// Issue 19: an A/A compare's busy run had all its /bin/true trials in its first 0.2 s, beside a hog
// on every CPU; with no earlier reading to reach back to, only their run-queue wait judged them, one
// of 15 was flagged and the hogs' run was called "faster". So when no reading of the last
// kStaleAfter exists, one is taken now and the trial waits kMinWindowSeconds for it (the sampler is
// made before the method starts): once per run, and after a pause.
void HostLoadSampler::take_first_reading() {
  const auto now = std::chrono::steady_clock::now();
  if (timeline_->newest(now, kStaleAfter)) return;
  const auto cpu = read();
  if (!cpu) return;
  timeline_->add({now, *cpu, own_cpu_seconds()});
  std::this_thread::sleep_for(std::chrono::duration<double>(kMinWindowSeconds));
}

std::optional<CpuTimes> HostLoadSampler::read() const {
  const auto line = files::read_line(path_);
  return line ? parse_proc_stat_cpu_line(*line) : std::nullopt;
}

double HostLoadSampler::own_cpu_seconds() const { return process_cpu_seconds() + timeline_->trees_cpu_seconds(); }

void HostLoadSampler::start(pid_t /*root*/) {
  const auto now = std::chrono::steady_clock::now();
  // The reading the last trial's end took a moment ago starts this trial's window: reading /proc/stat
  // again costs a short command's trial more than the few harness microseconds the window gains,
  // which count as the harness's own CPU (taken out) like the rest of it.
  if (const auto recent = timeline_->newest(now, kReuseReadingWithin)) {
    started_ = recent->time;
    first_ = recent->cpu;
    // A mark's own CPU is the process's plus the finished trees' (unchanged since: no tree ended).
    harness_cpu_at_start_ = recent->own_cpu_seconds - timeline_->trees_cpu_seconds();
  } else {
    started_ = now;
    harness_cpu_at_start_ = process_cpu_seconds();
    first_ = read();
    if (first_) timeline_->add({started_, *first_, own_cpu_seconds()});
  }
  previous_ = first_;
  series_.sampler = name();
  series_.columns = {"time", "host_busy_percent", "steal_percent"};
}

void HostLoadSampler::sample(double time) {
  const auto now = read();
  if (!now || !previous_) return;
  const double total = now->total - previous_->total;
  if (total <= 0) return;  // no tick yet since the last sample
  series_.rows.push_back(
      {time, 100.0 * (now->busy - previous_->busy) / total, 100.0 * (now->steal - previous_->steal) / total});
  previous_ = now;
}

SamplerOutput HostLoadSampler::finish(const TrialFacts& facts) {
  SamplerOutput out;
  out.series = std::move(series_);
  const auto last = read();
  if (!first_ || !last) {
    out.summary = {{"available", false}, {"reason", "cannot read " + path_}};
    return out;
  }
  const double window = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  // The harness's own CPU (its monitor thread, reaping) is not a neighbour's load. Read once for the
  // verdict and the end's mark: the process CPU clock is a system call summing every thread.
  const double harness_cpu = process_cpu_seconds();
  const double own = facts.tree_cpu_seconds.value_or(0.0) + (harness_cpu - harness_cpu_at_start_);
  HostLoadVerdict v =
      judge_host_load(*first_, *last, window, own, logical_cpus_, procfs::clock_ticks_per_second(), threshold_cpus_);
  const auto ended = std::chrono::steady_clock::now();
  timeline_->add_tree_cpu(facts.tree_cpu_seconds.value_or(0.0));
  const LoadTimeline::Mark end{ended, *last, harness_cpu + timeline_->trees_cpu_seconds()};
  std::optional<HostLoadVerdict> recent;
  // Over kMinWindowSeconds at least, reaching back to an earlier reading no older than 2 s.
  if (const auto from = timeline_->reaching_back(ended, std::chrono::duration<double>(kMinWindowSeconds), kStaleAfter);
      from && !v.judged) {
    const double span = std::chrono::duration<double>(ended - from->time).count();
    recent = judge_host_load(from->cpu, *last, span, end.own_cpu_seconds - from->own_cpu_seconds, logical_cpus_,
                             procfs::clock_ticks_per_second(), threshold_cpus_);
  }
  timeline_->add(end);
  judge_short_trial(v, recent, facts.run_queue_seconds, facts.wall_seconds);
  // Member by member: a braced list builds every value twice, and this runs after every trial.
  nlohmann::json& summary = out.summary;
  summary["available"] = true;
  summary["window_seconds"] = v.window_seconds;
  summary["logical_cpus"] = logical_cpus_;
  summary["host_busy_cpus"] = v.host_busy_cpus;
  summary["other_busy_cpus"] = v.other_busy_cpus;
  summary["steal_percent"] = v.steal_percent;
  summary["threshold_cpus"] = v.threshold_cpus;
  summary["judged"] = v.judged;
  summary["judged_by"] = v.judged_by;
  summary["run_queue_seconds"] = v.run_queue_seconds ? nlohmann::json(*v.run_queue_seconds) : nlohmann::json();
  summary["busy"] = v.busy;
  if (v.busy) out.flags.push_back("host_busy");
  out.count_own_cpu_elsewhere = [](SamplerOutput& o, double cpu_seconds) {
    count_as_own(o, cpu_seconds, procfs::clock_ticks_per_second());
  };
  return out;
}

}  // namespace perfzero::samplers
