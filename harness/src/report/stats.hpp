#pragma once
#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::report {

struct Stats {
  std::size_t count = 0;
  double median = 0;
  double mean = 0;
  double stddev = 0;  // sample standard deviation (n-1); 0 for one value
  double min = 0;
  double max = 0;
  double cv = 0;  // stddev / mean; 0 when the mean is 0
};

Stats compute_stats(std::vector<double> values);
nlohmann::json to_json(const Stats& stats);

}  // namespace perfzero::report
