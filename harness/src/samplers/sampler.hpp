#pragma once
// Anything that observes a running trial: it starts on the child's process tree, samples on the
// sample clock (samplers/sample_clock.hpp) and finishes with named summaries, flags and a time series.
// Reports carry each sampler's output under perfzero_cpp.samplers.<name>, so a new sampler is a new
// file plus one line in builtin_samplers.cpp; the runner and the reporters do not change.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/events.hpp"
#include "samplers/counter_readings.hpp"
#include "samplers/sampler_context.hpp"

namespace perfzero::samplers {

// What the harness found of the trial's directory once the method ended (unknown: not checked).
enum class TrialDirState { unknown, damaged, intact, untouched_tmp };

// What the runner knows once the trial's tree is gone, for samplers that relate their view to it.
struct TrialFacts {
  double wall_seconds = 0;
  std::optional<double> tree_cpu_seconds;   // user + system of the whole tree (kernel accounting)
  std::optional<double> run_queue_seconds;  // how long its processes waited for a CPU (schedstat)
  std::optional<double> max_rss_bytes;      // largest ru_maxrss of any process of the tree (kernel)
  std::filesystem::path trial_dir;          // where the trial writes; its TMPDIR is trial_dir/tmp
  // damaged: the method replaced or removed it (not walked); untouched_tmp: intact, and its TMPDIR
  // left empty (nothing there to count: it moved on to the next trial, or was removed).
  TrialDirState trial_dir_state = TrialDirState::unknown;
  std::optional<CounterReadings> counters;  // what perfzero-launch counted (none: it was lost)
};

struct SamplerOutput {
  nlohmann::json summary = nlohmann::json::object();  // named values, e.g. {"max_rss_tree": ...}
  std::vector<std::string> flags;                     // e.g. "host_busy": shown in the summaries
  results::TimeSeries series;
  // Figures of the method itself, added to its benchmark_result.metrics (the counters' sampler).
  std::vector<results::MetricValue> metrics;
  // Set by a sampler whose verdict weighs CPU time outside the trial's tree (the host load): called
  // by the runner, which names no sampler, with CPU seconds that were the method's own although they
  // ran outside its tree (an engine's ranks started on this machine by its own daemon).
  std::function<void(SamplerOutput&, double cpu_seconds)> count_own_cpu_elsewhere;
};

class Sampler {
 public:
  virtual ~Sampler() = default;
  virtual std::string name() const = 0;
  // The sample clock ticks at the run's --monitor_interval_ms; a sampler that needs less is
  // called no more often than this.
  virtual std::chrono::milliseconds min_period() const { return std::chrono::milliseconds(0); }
  // Samplers are made (constructed) just before the launch, on the harness thread.
  // On the harness thread, right after launch; `root` is perfzero-launch, the method runs below it.
  virtual void start(pid_t root) = 0;
  // On the monitor thread; `time` is seconds since the monitor started.
  virtual void sample(double time) = 0;
  // True while the sampler has not yet seen what it samples (a method not yet forked by the
  // launcher): the monitor then samples again within a millisecond, so a method far shorter than
  // one interval still gets a sample.
  virtual bool wants_quick_resample() const { return false; }
  // On the harness thread, after the monitor stopped and the tree was reaped.
  virtual SamplerOutput finish(const TrialFacts& facts) = 0;
};

struct SamplerInfo {
  std::string name;
  std::string description;
  // nullptr when the sampler cannot work on this machine (no GPU library, say): it is then left out.
  std::function<std::unique_ptr<Sampler>(const SamplerContext&)> make;
};

// Every optional sampler of this build (the process tree is always on and not listed).
const std::vector<SamplerInfo>& builtin_samplers();
// One of each available built-in sampler, for one trial, made with the run's settings.
std::vector<std::unique_ptr<Sampler>> make_builtin_samplers(const SamplerContext& context);

}  // namespace perfzero::samplers
