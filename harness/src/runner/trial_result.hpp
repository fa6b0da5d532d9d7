#pragma once
// Turns what the runner observed into a trial of the results model and the artifacts reporters
// write beside it. The one place where runner types meet the model.
#include <cstdint>

#include "results/events.hpp"
#include "results/model.hpp"
#include "runner/trial_record.hpp"

namespace perfzero::runner {

results::Trial make_trial(TrialRecord& record);               // moves the samplers' summaries and metrics out
results::TrialArtifacts make_artifacts(TrialRecord& record);  // moves the samplers' series out

// max_rss as reported: the largest of what the kernel and the samples saw (docs/monitoring.md).
std::uint64_t reported_max_rss(const TrialExecution& execution);

}  // namespace perfzero::runner
