#pragma once
// One measured value reported by a benchmark method. Bounds make the run fail when the value is
// outside them, as PerfZero's min_value/max_value do.
#include <optional>
#include <string>

namespace perfzero {

struct Metric {
  std::string name;
  double value = 0.0;
  std::string unit;
  std::optional<double> min_value;
  std::optional<double> max_value;
};

}  // namespace perfzero
