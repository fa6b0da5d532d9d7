#pragma once
// The between-run noise floor of a ranking. The bootstrap of a ratio resamples trials, so it sees the
// spread within runs only: one run per configuration confounds the machine with the moment it ran
// (another tenant, a warmer cache, a turbo bin). A configuration measured in one run is therefore
// compared only beyond how far runs of one configuration land apart (docs/report.md, "Fastest,
// cheapest and ties").
#include "fleet_report/report_model.hpp"

namespace perfzero::fleet_report {

// The fewest pairs of consecutive runs a history's figure stands on.
inline constexpr std::size_t kMinHistoryPairs = 5;

// --run_noise when given; else the widest spread of run medians (largest over smallest, less 1)
// among the method's configurations measured in several runs; else what the history shows
// (settings.history_noise, at least kMinHistoryPairs pairs); else the default.
RunNoise run_noise_of(const MethodRow& row, const RankSettings& settings);

// Widens `r`'s interval by `noise` (low / (1 + noise), high x (1 + noise)) and decides its tie again.
void widen_by_run_noise(Ratio& r, double noise, double min_change);

// "25% between-run noise (default: no configuration ran more than once)"
std::string run_noise_text(const RunNoise& noise);

}  // namespace perfzero::fleet_report
