#pragma once
// The CPU's clock while a trial runs: every CPU's current frequency on the sample clock (cpufreq's
// scaling_cur_freq, else /proc/cpuinfo's "cpu MHz"), against the CPU's maximum (cpuinfo_max_freq),
// and the thermal throttle events the kernel counted meanwhile (thermal_throttle/*_count). A trial
// whose mean clock was below `threshold` of the maximum for more than `share` of its samples is
// flagged cpu_throttled, a disturbance (docs/monitoring.md). Where no maximum is known (a VM without
// cpufreq) the clock is recorded and nothing is judged, saying so.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "samplers/sampler.hpp"
#include "samplers/sampler_context.hpp"

namespace perfzero::samplers {

struct CpuClockPaths {
  std::filesystem::path cpus = "/sys/devices/system/cpu";
  std::filesystem::path cpuinfo = "/proc/cpuinfo";
};

class CpuClockSampler : public Sampler {
 public:
  explicit CpuClockSampler(CpuClockPaths paths = {}, CpuClockSettings settings = {});
  std::string name() const override { return "cpu_clock"; }
  // /proc/cpuinfo is long on a large machine: four reads a second show a clock that stays down.
  std::chrono::milliseconds min_period() const override { return std::chrono::milliseconds(250); }
  void start(pid_t root) override;
  void sample(double time) override;
  SamplerOutput finish(const TrialFacts& facts) override;

 private:
  std::vector<double> current_mhz() const;
  std::optional<std::int64_t> throttle_events(const char* which) const;

  CpuClockPaths paths_;
  CpuClockSettings settings_;
  // The machine's layout, found once per process and kept (a large machine has hundreds of files):
  // a sampler made for every trial points into it rather than copying it.
  const std::vector<std::filesystem::path>* cur_freq_files_ = nullptr;  // empty: /proc/cpuinfo
  const std::vector<std::filesystem::path>* throttle_dirs_ = nullptr;
  const std::vector<double>* fixed_mhz_ = nullptr;  // a cpuinfo clock that cannot move, read once
  std::optional<double> max_mhz_;
  std::optional<std::int64_t> core_events_at_start_;
  std::optional<std::int64_t> package_events_at_start_;
  int samples_ = 0;
  int below_ = 0;
  double sum_mean_ = 0;
  std::optional<double> lowest_;
  results::TimeSeries series_;
};

}  // namespace perfzero::samplers
