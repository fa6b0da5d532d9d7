#include "samplers/counters_sampler.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

namespace perfzero::samplers {

namespace {

struct Shown {
  Counter counter;
  const char* unit;
};

// Unit per counter, as the metric is reported; every count is lower-is-better for the same work.
constexpr Shown kShown[] = {
    {Counter::task_clock, "s"},
    {Counter::context_switches, "switches"},
    {Counter::cpu_migrations, "migrations"},
    {Counter::page_faults, "faults"},
    {Counter::cycles, "cycles"},
    {Counter::instructions, "instructions"},
    {Counter::branches, "branches"},
    {Counter::branch_misses, "misses"},
    {Counter::cache_references, "references"},
    {Counter::cache_misses, "misses"},
};

std::string paranoid_level() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string level;
  in >> level;
  return level.empty() ? "unknown" : level;
}

nlohmann::json rusage_summary(const CounterReadings& r) {
  nlohmann::json rusage = nlohmann::json::object();
  rusage["voluntary_switches"] = r.voluntary_switches;
  rusage["involuntary_switches"] = r.involuntary_switches;
  rusage["minor_faults"] = r.minor_faults;
  rusage["major_faults"] = r.major_faults;
  return rusage;
}

}  // namespace

std::string why_not_counted(int error, bool hardware) {
  switch (error) {
    case ENOENT:
    case EOPNOTSUPP:
      return hardware ? "this machine has no PMU for it (a VM without a virtual PMU: perf_event_open says ENOENT)"
                      : "this kernel has no such software event (perf_event_open: ENOENT)";
    case EACCES:
    case EPERM:
      return fmt::format(
          "perf_event_open is not allowed: perf_event_paranoid is {} (a user may count its own processes at 2 or "
          "less), or a container's seccomp profile refuses it (Docker's default does: docker run --cap-add "
          "PERFMON, or SYS_ADMIN before Docker 23, counts everything; --security-opt seccomp=unconfined user "
          "space)",
          paranoid_level());
    case ENOSYS:
      return "this kernel has no perf_event_open";
    case EMFILE:
      return "no file descriptor left for it (EMFILE)";
    case EBUSY:
      return "never on the PMU during the trial: other events (a profiler, the NMI watchdog) held every "
             "hardware counter";
    default:
      return fmt::format("perf_event_open failed: {}", std::strerror(error));
  }
}

// Built member by member: a braced list builds every value twice (once in the list, once copied out),
// and this runs after every trial.
SamplerOutput counters_output(const std::optional<CounterReadings>& readings) {
  SamplerOutput out;
  if (!readings) {
    out.summary = {{"available", false}, {"why", "perfzero-launch was lost with the method: nothing was read"}};
    return out;
  }
  const CounterReadings& r = *readings;
  nlohmann::json counted = nlohmann::json::object();
  nlohmann::json unavailable = nlohmann::json::object();
  auto add = [&](const std::string& name, double value, const char* unit, const char* source, double share) {
    out.metrics.push_back({name, value, unit, std::nullopt, std::nullopt, Direction::lower_is_better});
    nlohmann::json& entry = counted[name];
    entry["value"] = value;
    entry["source"] = source;
    entry["running_share"] = share;
  };
  for (const auto& [counter, unit] : kShown) {
    const CounterReading& c = r[counter];
    const std::string name(counter_name(counter));
    if (!c.asked) continue;
    if (c.value) {
      const double value = counter == Counter::task_clock ? *c.value / 1e9 : *c.value;  // ns
      add(name, value, unit, "perf_event", c.running_share);
      continue;
    }
    // The kernel's accounting of the tree gives the two a user most asks about without perf.
    if (counter == Counter::context_switches) {
      add(name, static_cast<double>(r.voluntary_switches + r.involuntary_switches), unit, "rusage", 1);
    } else if (counter == Counter::page_faults) {
      add(name, static_cast<double>(r.minor_faults + r.major_faults), unit, "rusage", 1);
    }
    unavailable[name] = why_not_counted(c.error, is_hardware(counter));
  }
  const auto value_of = [&](Counter c) { return r[c].value; };
  if (value_of(Counter::instructions) && value_of(Counter::cycles) && *value_of(Counter::cycles) > 0) {
    const double ipc = *value_of(Counter::instructions) / *value_of(Counter::cycles);
    out.metrics.push_back({"ipc", ipc, "instructions/cycle", std::nullopt, std::nullopt, Direction::higher_is_better});
    nlohmann::json& entry = counted["ipc"];
    entry["value"] = ipc;
    entry["source"] = "instructions / cycles";
  }
  auto ratio = [&](const char* name, Counter part, Counter whole) {
    if (!value_of(part) || !value_of(whole) || *value_of(whole) <= 0) return;
    const double percent = 100.0 * *value_of(part) / *value_of(whole);
    out.metrics.push_back({name, percent, "%", std::nullopt, std::nullopt, Direction::lower_is_better});
    nlohmann::json& entry = counted[name];
    entry["value"] = percent;
    entry["source"] = fmt::format("{} / {}", counter_name(part), counter_name(whole));
  };
  ratio("branch_miss_percent", Counter::branch_misses, Counter::branches);
  ratio("cache_miss_percent", Counter::cache_misses, Counter::cache_references);
  nlohmann::json& s = out.summary;
  s["available"] = true;
  s["counted"] = std::move(counted);
  s["unavailable"] = std::move(unavailable);
  s["user_space_only"] = r.user_only;
  s["rusage"] = rusage_summary(r);
  return out;
}

SamplerOutput CountersSampler::finish(const TrialFacts& facts) { return counters_output(facts.counters); }

}  // namespace perfzero::samplers
