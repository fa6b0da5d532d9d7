#include "results/flags.hpp"

#include <algorithm>
#include <array>

namespace perfzero::results {

namespace {

constexpr std::array<std::string_view, 4> kDisturbances = {"host_busy", "gpu_throttled", "cpu_throttled",
                                                           "harness_stalled"};

}  // namespace

bool is_disturbance(std::string_view flag) {
  return std::find(kDisturbances.begin(), kDisturbances.end(), flag) != kDisturbances.end();
}

std::vector<std::string> disturbances(const Trial& trial) {
  std::vector<std::string> out;
  for (const auto& f : trial.flags) {
    if (is_disturbance(f) && std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  }
  return out;
}

bool disturbed(const Trial& trial) {
  return std::any_of(trial.flags.begin(), trial.flags.end(), [](const std::string& f) { return is_disturbance(f); });
}

void count_disturbances(const Trial& trial, FlagCounts& counts) {
  for (const auto& f : disturbances(trial)) {
    const auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == f; });
    if (it == counts.end()) {
      counts.emplace_back(f, 1);
    } else {
      ++it->second;
    }
  }
}

std::string flag_words(std::string_view flag) {
  std::string out(flag);
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

}  // namespace perfzero::results
