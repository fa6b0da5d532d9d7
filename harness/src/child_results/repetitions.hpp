#pragma once
// The `repetitions` list of a child's result file (docs/protocol.md): every timed repetition of each
// named series, checked before it goes into the per-trial report.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::child_results {

// A result file may hold at most this many values over all its series: a runaway loop must not make
// the report unreadable.
inline constexpr std::size_t kMaxRepetitionValues = 1'000'000;

struct RepetitionRecord {
  std::string name;
  std::string unit = "s";
  std::vector<double> values;
  std::int64_t warmups = 0;
  std::optional<std::string> stopped_by;  // one of perfzero::StopReason's names
  std::optional<double> relative_noise;
};

// The series, or a message naming the index and field at fault.
std::variant<std::vector<RepetitionRecord>, std::string> parse_repetitions(const nlohmann::json& list);
nlohmann::json repetitions_json(const std::vector<RepetitionRecord>& records);

}  // namespace perfzero::child_results
