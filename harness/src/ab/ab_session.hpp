#pragma once
// The session of `perfzero ab`: both sides' runs side by side, pairs in ABBA order, looks at the
// planned pair counts, and the stop once every gated metric is decided or the budget is spent
// (docs/compare.md, "perfzero ab").
#include <optional>
#include <string>

#include "ab/ab_sides.hpp"
#include "cli/ab_options.hpp"
#include "compare/compare_runs.hpp"
#include "engines/engine.hpp"

namespace perfzero::ab {

struct AbOutcome {
  compare::RunComparison report;
  std::optional<int> stop;               // the signal that stopped the session
  std::optional<std::string> unwritten;  // the first output a side could not write
};

// `engines`: what starts the sides' trials (a test's fake engine in place of the built-in ones).
AbOutcome run_ab_session(const cli::AbOptions& options, AbSide& baseline, AbSide& candidate,
                         const std::string& session_id,
                         const engines::EngineRegistry& engines = engines::builtin_engines());

}  // namespace perfzero::ab
