#pragma once
// One measured value reported by a benchmark method. Bounds make the run fail when the value is
// outside them, as PerfZero's min_value/max_value do. The direction says which way is better, so that
// `perfzero compare` can tell a slowdown from a speed-up without guessing from the metric's name.
#include <optional>
#include <string>
#include <string_view>

namespace perfzero {

enum class Direction { unspecified, higher_is_better, lower_is_better };

struct Metric {
  std::string name;
  double value = 0.0;
  std::string unit;
  std::optional<double> min_value;
  std::optional<double> max_value;
  Direction direction = Direction::unspecified;
};

// The protocol's spelling: "higher", "lower", or "" for unspecified (the key is then left out).
constexpr std::string_view to_string(Direction d) {
  switch (d) {
    case Direction::higher_is_better:
      return "higher";
    case Direction::lower_is_better:
      return "lower";
    case Direction::unspecified:
      break;
  }
  return "";
}

// "higher" or "lower"; anything else is not a direction.
constexpr std::optional<Direction> direction_from_string(std::string_view s) {
  if (s == "higher") return Direction::higher_is_better;
  if (s == "lower") return Direction::lower_is_better;
  return std::nullopt;
}

}  // namespace perfzero
