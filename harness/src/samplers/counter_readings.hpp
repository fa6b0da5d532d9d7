#pragma once
// The counters perf_event_open counted for one trial's tree (perfzero-launch opens them: see
// harness/launcher/launcher_counters.h), and the kernel's rusage they fall back on. Which counters a
// run asks for is --counters (counter_set()).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace perfzero::samplers {

// In the order of harness/launcher/launch_protocol.h's enum pz_counter (checked where both meet).
enum class Counter : std::uint8_t {
  task_clock,
  context_switches,
  cpu_migrations,
  page_faults,
  cycles,
  instructions,
  branches,
  branch_misses,
  cache_references,
  cache_misses,
};
inline constexpr std::size_t kCounterCount = 10;

std::string_view counter_name(Counter c);  // "context_switches", ...
bool is_hardware(Counter c);

struct CounterReading {
  bool asked = false;
  std::optional<double> value;  // counted (scaled when the PMU multiplexed it)
  int error = 0;                // perf_event_open's errno when it could not count
  double running_share = 1;     // the share of the trial it was on the PMU
};

struct CounterReadings {
  std::array<CounterReading, kCounterCount> counters;
  bool user_only = false;  // perf_event_paranoid allowed user space only
  std::int64_t voluntary_switches = 0;
  std::int64_t involuntary_switches = 0;
  std::int64_t minor_faults = 0;
  std::int64_t major_faults = 0;
  const CounterReading& operator[](Counter c) const { return counters[static_cast<std::size_t>(c)]; }
  CounterReading& operator[](Counter c) { return counters[static_cast<std::size_t>(c)]; }
};

// --counters: "default" (every counter), "none", "software", "hardware", or a comma-separated list
// of names; the bits of the counters asked for, or nullopt with `error` saying what is wrong.
std::optional<std::uint32_t> counter_set(std::string_view text, std::string& error);
inline constexpr std::uint32_t kAllCounters = (1U << kCounterCount) - 1;

}  // namespace perfzero::samplers
