#pragma once
// Where a `trials: auto` case stands: whether it has enough trials, and why it stopped.
#include <optional>
#include <string>
#include <vector>

#include "common/auto_trials.hpp"
#include "results/model.hpp"

namespace perfzero::results {

struct AutoState {
  bool done = false;
  std::string reason;           // "noise 1.8% <= 2.0%", "max_trials 50 reached", ...; empty while running
  std::optional<double> noise;  // the noise reached; nullopt with fewer than 6 measurements
  std::string metric;           // what the noise is of: the main metric, else wall_time
  int measured = 0;             // succeeded, undisturbed trials
  int run = 0;                  // every trial run
  double seconds = 0;           // their time in the harness
};

AutoState auto_state(const Case& c, const AutoTrials& settings);

// Half the width of the distribution-free 95 % interval of the median (order statistics of a
// Binomial(n, 1/2)), over the median; nullopt for fewer than 6 values or a zero median.
std::optional<double> median_noise(std::vector<double> values);

}  // namespace perfzero::results
