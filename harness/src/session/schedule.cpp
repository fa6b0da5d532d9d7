#include "session/schedule.hpp"

#include <algorithm>

namespace perfzero::session {

std::vector<Step> make_schedule(const std::vector<config::PlannedCase>& plan, bool interleave) {
  std::vector<Step> steps;
  int rounds = 0;
  for (std::size_t c = 0; c < plan.size(); ++c) {
    for (int w = 1; w <= plan[c].warmup_trials; ++w) steps.push_back({c, true, w});
    if (!interleave) {
      for (int t = 1; t <= plan[c].trials; ++t) steps.push_back({c, false, t});
    }
    rounds = std::max(rounds, plan[c].trials);
  }
  if (interleave) {
    for (int t = 1; t <= rounds; ++t) {
      for (std::size_t c = 0; c < plan.size(); ++c) {
        if (t <= plan[c].trials) steps.push_back({c, false, t});
      }
    }
  }
  return steps;
}

}  // namespace perfzero::session
