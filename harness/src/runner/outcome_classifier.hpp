#pragma once
// Turns how a child ended, and what it wrote, into one named outcome with a human-readable reason.
#include <string>
#include <variant>

#include "child_results/child_result.hpp"
#include "common/outcome.hpp"
#include "runner/trial_execution.hpp"

namespace perfzero::runner {

struct Classification {
  Outcome outcome = Outcome::invalid;
  std::string detail;  // empty when succeeded
  bool has_exception = false;
};

Classification classify(const TrialExecution& execution,
                        const std::variant<child_results::ChildResult, std::string>& result);

// A multi-rank trial that did not succeed names the rank and host that ended it: the engine's own
// end (mpirun's exit code, or the signal it passed on) says only that some rank failed.
void name_the_rank(Classification& classification, const TrialExecution& execution);

// What the engine said of a failed step (Slurm refused it, or lost a node) decides its outcome and
// leads its detail; a trial that succeeded, timed out or was interrupted keeps its own.
void apply_engine_verdict(Classification& classification, const TrialExecution& execution);

std::string signal_name(int signal);

}  // namespace perfzero::runner
