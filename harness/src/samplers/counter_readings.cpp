#include "samplers/counter_readings.hpp"

#include <fmt/format.h>

namespace perfzero::samplers {

namespace {

constexpr std::array<std::string_view, kCounterCount> kNames{
    "task_clock",   "context_switches", "cpu_migrations", "page_faults",      "cycles",
    "instructions", "branches",         "branch_misses",  "cache_references", "cache_misses"};

constexpr std::uint32_t kSoftware = 0b1111;  // the first four: the kernel's own, no PMU needed

}  // namespace

std::string_view counter_name(Counter c) { return kNames[static_cast<std::size_t>(c)]; }

bool is_hardware(Counter c) { return ((kSoftware >> static_cast<unsigned>(c)) & 1U) == 0; }

std::optional<std::uint32_t> counter_set(std::string_view text, std::string& error) {
  if (text == "default" || text == "all") return kAllCounters;
  if (text == "none") return 0U;
  if (text == "software") return kSoftware;
  if (text == "hardware") return kAllCounters & ~kSoftware;
  std::uint32_t bits = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view name = text.substr(start, comma - start);
    std::size_t i = 0;
    while (i < kNames.size() && kNames[i] != name) ++i;
    if (i == kNames.size()) {
      std::string known;
      for (const auto n : kNames) known += fmt::format("{}{}", known.empty() ? "" : ", ", n);
      error = fmt::format("--counters: unknown counter '{}': default, none, software, hardware, or names among {}",
                          name, known);
      return std::nullopt;
    }
    bits |= 1U << i;
    start = comma + 1;
  }
  return bits;
}

}  // namespace perfzero::samplers
