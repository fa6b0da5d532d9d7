#pragma once
// The order in which a run executes its (case, trial) steps.
#include <cstddef>
#include <vector>

#include "config/run_plan.hpp"

namespace perfzero::session {

struct Step {
  std::size_t case_index;
  bool warmup;
  int number;  // 1-based
};

// Sequential: each method's warm-ups and trials together. Interleaved: every warm-up first, then
// trial 1 of every method, trial 2 of every method, ...: a drifting machine (a noisy neighbour,
// thermal state) then biases no method against another.
std::vector<Step> make_schedule(const std::vector<config::PlannedCase>& plan, bool interleave);

}  // namespace perfzero::session
