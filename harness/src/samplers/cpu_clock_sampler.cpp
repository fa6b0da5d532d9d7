#include "samplers/cpu_clock_sampler.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>

#include <fmt/format.h>

namespace perfzero::samplers {

namespace {

std::optional<double> read_number(const std::filesystem::path& file) {
  std::ifstream in(file);
  double value = 0;
  if (in >> value) return value;
  return std::nullopt;
}

// cpu0, cpu1, ... (not cpufreq, cpuidle): the logical CPUs the kernel lists.
std::vector<std::filesystem::path> cpu_dirs(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> dirs;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 3 && name.rfind("cpu", 0) == 0 &&
        std::all_of(name.begin() + 3, name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      dirs.push_back(entry.path());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// The "cpu MHz" lines of a cpuinfo file.
std::vector<double> cpuinfo_mhz(const std::filesystem::path& cpuinfo) {
  std::vector<double> mhz;
  std::ifstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu MHz", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::istringstream value(line.substr(colon + 1));
    double v = 0;
    if (value >> v) mhz.push_back(v);
  }
  return mhz;
}

// True when an x86 cpuinfo's "cpu MHz" cannot move: without cpufreq and without the APERF/MPERF
// registers (a VM's CPU flags often lack `aperfmperf`) the kernel prints its boot-time TSC
// calibration there (arch_freq_get_on_cpu's fallback), the same figure for as long as it runs.
bool cpuinfo_clock_is_fixed(const std::filesystem::path& cpuinfo) {
  std::ifstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    const auto colon = line.find(':');
    std::istringstream words(colon == std::string::npos ? std::string() : line.substr(colon + 1));
    std::string flag;
    while (words >> flag) {
      if (flag == "aperfmperf") return false;
    }
    return true;
  }
  return false;  // no x86 flags line: nothing is known of how the figure is made
}

// What does not change while perfzero runs: which CPUs have cpufreq, their maximum, which have
// thermal throttle counters, and a cpuinfo clock that cannot move. Found once per root (the sampler
// is made per trial, and a large machine has hundreds of CPUs).
struct CpuLayout {
  std::vector<std::filesystem::path> cur_freq_files;
  std::optional<double> max_mhz;
  std::vector<std::filesystem::path> throttle_dirs;
  // Read once: generating /proc/cpuinfo cost a short trial's monitor 0.1 ms of CPU per sample here.
  std::optional<std::vector<double>> fixed_mhz;
};

const CpuLayout& layout_of(const CpuClockPaths& paths) {
  static std::mutex mutex;
  static std::map<std::pair<std::filesystem::path, std::filesystem::path>, CpuLayout> layouts;
  const std::lock_guard lock(mutex);
  const auto key = std::make_pair(paths.cpus, paths.cpuinfo);
  const auto found = layouts.find(key);
  if (found != layouts.end()) return found->second;
  CpuLayout l;
  const std::filesystem::path& root = paths.cpus;
  for (const auto& dir : cpu_dirs(root)) {
    const auto cur = dir / "cpufreq" / "scaling_cur_freq";
    if (std::filesystem::exists(cur)) l.cur_freq_files.push_back(cur);
    if (const auto max_khz = read_number(dir / "cpufreq" / "cpuinfo_max_freq")) {
      l.max_mhz = std::max(l.max_mhz.value_or(0), *max_khz / 1000.0);
    }
    if (std::filesystem::exists(dir / "thermal_throttle")) l.throttle_dirs.push_back(dir / "thermal_throttle");
  }
  if (l.cur_freq_files.empty() && cpuinfo_clock_is_fixed(paths.cpuinfo)) l.fixed_mhz = cpuinfo_mhz(paths.cpuinfo);
  return layouts.emplace(key, std::move(l)).first->second;
}

}  // namespace

CpuClockSampler::CpuClockSampler(CpuClockPaths paths, CpuClockSettings settings)
    : paths_(std::move(paths)), settings_(settings) {}

std::vector<double> CpuClockSampler::current_mhz() const {
  std::vector<double> mhz;
  if (cur_freq_files_ != nullptr && !cur_freq_files_->empty()) {
    for (const auto& f : *cur_freq_files_) {
      if (const auto khz = read_number(f)) mhz.push_back(*khz / 1000.0);
    }
    return mhz;
  }
  if (fixed_mhz_) return *fixed_mhz_;
  return cpuinfo_mhz(paths_.cpuinfo);
}

std::optional<std::int64_t> CpuClockSampler::throttle_events(const char* which) const {
  std::optional<std::int64_t> total;
  for (const auto& dir : throttle_dirs_ != nullptr ? *throttle_dirs_ : layout_of(paths_).throttle_dirs) {
    if (const auto n = read_number(dir / which)) total = total.value_or(0) + static_cast<std::int64_t>(*n);
  }
  return total;
}

void CpuClockSampler::start(pid_t /*root*/) {
  series_.sampler = name();
  series_.columns = {"time", "mean_mhz", "min_mhz"};
  const CpuLayout& layout = layout_of(paths_);
  cur_freq_files_ = &layout.cur_freq_files;
  throttle_dirs_ = &layout.throttle_dirs;
  max_mhz_ = layout.max_mhz;
  fixed_mhz_ = layout.fixed_mhz ? &*layout.fixed_mhz : nullptr;
  core_events_at_start_ = throttle_events("core_throttle_count");
  package_events_at_start_ = throttle_events("package_throttle_count");
}

void CpuClockSampler::sample(double time) {
  const std::vector<double> mhz = current_mhz();
  if (mhz.empty()) return;
  const double mean = std::accumulate(mhz.begin(), mhz.end(), 0.0) / static_cast<double>(mhz.size());
  const double low = *std::min_element(mhz.begin(), mhz.end());
  ++samples_;
  sum_mean_ += mean;
  lowest_ = std::min(lowest_.value_or(low), low);
  if (max_mhz_ && mean < settings_.threshold * *max_mhz_) ++below_;
  series_.rows.push_back({time, mean, low});
}

SamplerOutput CpuClockSampler::finish(const TrialFacts& /*facts*/) {
  SamplerOutput out;
  auto delta = [](const std::optional<std::int64_t>& before, const std::optional<std::int64_t>& now) {
    return before && now ? nlohmann::json(*now - *before) : nlohmann::json();
  };
  const bool judged = max_mhz_.has_value() && samples_ > 0;
  const double share = samples_ > 0 ? static_cast<double>(below_) / samples_ : 0;
  const bool throttled = judged && share > settings_.share;
  const char* source = cur_freq_files_ != nullptr && !cur_freq_files_->empty() ? "cpufreq scaling_cur_freq"
                       : fixed_mhz_ ? "/proc/cpuinfo cpu MHz (fixed: no cpufreq, no aperfmperf; read once)"
                                    : "/proc/cpuinfo cpu MHz";
  // Member by member: a braced list builds every value twice, and this runs after every trial.
  nlohmann::json& summary = out.summary;
  summary["source"] = source;
  summary["samples"] = samples_;
  summary["mean_mhz"] = samples_ > 0 ? nlohmann::json(sum_mean_ / samples_) : nlohmann::json();
  summary["lowest_mhz"] = lowest_ ? nlohmann::json(*lowest_) : nlohmann::json();
  summary["max_mhz"] = max_mhz_ ? nlohmann::json(*max_mhz_) : nlohmann::json();
  summary["threshold_percent"] = 100 * settings_.threshold;
  summary["share_limit_percent"] = 100 * settings_.share;
  summary["below_threshold_percent"] = judged ? nlohmann::json(100 * share) : nlohmann::json();
  summary["judged"] = judged;
  summary["throttled"] = throttled;
  nlohmann::json& events = summary["thermal_throttle_events"];
  events["core"] = delta(core_events_at_start_, throttle_events("core_throttle_count"));
  events["package"] = delta(package_events_at_start_, throttle_events("package_throttle_count"));
  if (!judged) {
    out.summary["why_not_judged"] = !max_mhz_ ? "no maximum clock known: no cpufreq cpuinfo_max_freq in " +
                                                    paths_.cpus.string() + " (a VM shows none)"
                                              : std::string("no sample: the trial was shorter than the sample period");
  }
  if (throttled) out.flags.emplace_back("cpu_throttled");
  out.series = std::move(series_);
  return out;
}

}  // namespace perfzero::samplers
