#pragma once
// A trial's journal line, written straight from the model: the same bytes as dumping
// {"case", "event": "trial", "seq", "trial": trial_to_json(t)} with nlohmann::json (keys in its
// order, its number and string forms, invalid UTF-8 replaced), without first copying the trial's
// samplers, extras and process details into a tree, which cost a short command's trial a sixth of
// the harness's own time (docs/performance-log.md).
#include <string>

#include "results/model.hpp"

namespace perfzero::results {

// The line, without its newline.
std::string trial_event_text(const std::string& case_name, long long seq, const Trial& t);

}  // namespace perfzero::results
