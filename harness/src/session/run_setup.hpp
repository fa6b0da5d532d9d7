#pragma once
// What a run knows before its first trial: its identity, the machine, the flags and environment as
// reports record them (redacted), and one results::Case per planned case.
#include <vector>

#include "config/run_plan.hpp"
#include "results/model.hpp"
#include "session/output_dir.hpp"
#include "session/session_settings.hpp"

namespace perfzero::session {

results::Run make_run(const SessionSettings& settings, const ClaimedOutput& output,
                      const std::vector<config::PlannedCase>& plan, const std::vector<config::Comparison>& comparisons);

}  // namespace perfzero::session
