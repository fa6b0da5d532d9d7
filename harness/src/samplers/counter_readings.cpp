#include "samplers/counter_readings.hpp"

#include <fmt/format.h>

#include "results/counter_metrics.hpp"

namespace perfzero::samplers {

namespace {

// The counters' metric names are the first kCounterCount of results::kCounterMetrics, in this order.
const auto& kNames = results::kCounterMetrics;
static_assert(results::kCounterMetrics[kCounterCount - 1] == "cache_misses", "the counters come first, in enum order");

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
    while (i < kCounterCount && kNames[i] != name) ++i;
    if (i == kCounterCount) {
      std::string known;
      for (std::size_t k = 0; k < kCounterCount; ++k)
        known += fmt::format("{}{}", known.empty() ? "" : ", ", kNames[k]);
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
