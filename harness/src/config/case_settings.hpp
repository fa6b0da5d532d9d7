#pragma once
// A planned case's run settings from its layers (flag > method entry > suite defaults > built-in
// default), and the check that one case asked for twice is asked for the same way.
#include <string>
#include <vector>

#include "config/run_plan.hpp"

namespace perfzero::config {

// A case with every layer's settings applied, low to high; `origin` names it in errors (trials:
// auto's limits that contradict, a launch that cannot be). Throws ConfigError.
PlannedCase with_settings(const std::vector<const RunSettings*>& layers_low_to_high, const std::string& origin);

// The same method and parameters asked for twice (say by a filter and by name) runs once; with
// different settings, which to use would be a guess: throws ConfigError naming both places.
void check_same_settings(const PlannedCase& first, const PlannedCase& again);

}  // namespace perfzero::config
