#pragma once
// Every way a (method, trial) can end has a name; reports, the summary and the exit code use it.
#include <optional>
#include <string_view>

namespace perfzero {

enum class Outcome {
  succeeded,    // exited 0 with a valid result and every metric within its bounds
  failed,       // non-zero exit, a reported failure, or a metric outside its bounds
  crashed,      // ended by a signal
  timed_out,    // still running at --timeout; its whole tree was killed
  skipped,      // the method said it cannot run here (e.g. no GPU)
  invalid,      // exited 0 but wrote no result, or one that cannot be read
  interrupted,  // the harness was stopped (SIGINT/SIGTERM) while it ran
};

std::string_view to_string(Outcome outcome);
std::optional<Outcome> outcome_from_string(std::string_view name);
// succeeded and skipped keep the exit status 0; everything else makes it 1.
bool counts_as_success(Outcome outcome);

}  // namespace perfzero
