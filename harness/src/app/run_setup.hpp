#pragma once
// What a run knows before its first trial: its identity, the machine, the flags and environment as
// reports record them (redacted), and one results::Case per planned case.
#include <vector>

#include "app/output_dir.hpp"
#include "cli/options.hpp"
#include "config/run_plan.hpp"
#include "results/model.hpp"

namespace perfzero::app {

results::Run make_run(const cli::Options& options, const ClaimedOutput& output,
                      const std::vector<config::PlannedCase>& plan, const std::vector<config::Comparison>& comparisons);

}  // namespace perfzero::app
