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

// What does not change while perfzero runs: which CPUs have cpufreq, their maximum, and which have
// thermal throttle counters. Found once per root (the sampler is made per trial, and a large machine
// has hundreds of CPUs).
struct CpuLayout {
  std::vector<std::filesystem::path> cur_freq_files;
  std::optional<double> max_mhz;
  std::vector<std::filesystem::path> throttle_dirs;
};

const CpuLayout& layout_of(const std::filesystem::path& root) {
  static std::mutex mutex;
  static std::map<std::filesystem::path, CpuLayout> layouts;
  const std::lock_guard lock(mutex);
  const auto found = layouts.find(root);
  if (found != layouts.end()) return found->second;
  CpuLayout l;
  for (const auto& dir : cpu_dirs(root)) {
    const auto cur = dir / "cpufreq" / "scaling_cur_freq";
    if (std::filesystem::exists(cur)) l.cur_freq_files.push_back(cur);
    if (const auto max_khz = read_number(dir / "cpufreq" / "cpuinfo_max_freq")) {
      l.max_mhz = std::max(l.max_mhz.value_or(0), *max_khz / 1000.0);
    }
    if (std::filesystem::exists(dir / "thermal_throttle")) l.throttle_dirs.push_back(dir / "thermal_throttle");
  }
  return layouts.emplace(root, std::move(l)).first->second;
}

}  // namespace

CpuClockSampler::CpuClockSampler(CpuClockPaths paths, CpuClockSettings settings)
    : paths_(std::move(paths)), settings_(settings) {}

std::vector<double> CpuClockSampler::current_mhz() const {
  std::vector<double> mhz;
  if (!cur_freq_files_.empty()) {
    for (const auto& f : cur_freq_files_) {
      if (const auto khz = read_number(f)) mhz.push_back(*khz / 1000.0);
    }
    return mhz;
  }
  std::ifstream in(paths_.cpuinfo);
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

std::optional<std::int64_t> CpuClockSampler::throttle_events(const char* which) const {
  std::optional<std::int64_t> total;
  for (const auto& dir : layout_of(paths_.cpus).throttle_dirs) {
    if (const auto n = read_number(dir / which)) total = total.value_or(0) + static_cast<std::int64_t>(*n);
  }
  return total;
}

void CpuClockSampler::start(pid_t /*root*/) {
  series_.sampler = name();
  series_.columns = {"time", "mean_mhz", "min_mhz"};
  const CpuLayout& layout = layout_of(paths_.cpus);
  cur_freq_files_ = layout.cur_freq_files;
  max_mhz_ = layout.max_mhz;
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
  out.summary = {{"source", cur_freq_files_.empty() ? "/proc/cpuinfo cpu MHz" : "cpufreq scaling_cur_freq"},
                 {"samples", samples_},
                 {"mean_mhz", samples_ > 0 ? nlohmann::json(sum_mean_ / samples_) : nlohmann::json()},
                 {"lowest_mhz", lowest_ ? nlohmann::json(*lowest_) : nlohmann::json()},
                 {"max_mhz", max_mhz_ ? nlohmann::json(*max_mhz_) : nlohmann::json()},
                 {"threshold_percent", 100 * settings_.threshold},
                 {"share_limit_percent", 100 * settings_.share},
                 {"below_threshold_percent", judged ? nlohmann::json(100 * share) : nlohmann::json()},
                 {"judged", judged},
                 {"throttled", throttled},
                 {"thermal_throttle_events",
                  {{"core", delta(core_events_at_start_, throttle_events("core_throttle_count"))},
                   {"package", delta(package_events_at_start_, throttle_events("package_throttle_count"))}}}};
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
