#pragma once
// The one verdict policy (docs/compare.md, "The gate"): what every row's verdict means for the gate
// of `perfzero compare` and `perfzero ab` (their exit status, the gate line, JUnit). A candidate
// slower beyond the threshold fails it; so does a candidate that measured nothing (its trials failed
// or crashed, or the case is gone); a row that cannot be decided (too noisy, unreliable, unknown) is
// neither a pass nor a failure: exit status 5 unless --pass_on=undecided accepts it.
#include <string>
#include <string_view>

#include "compare/compare_runs.hpp"

namespace perfzero::compare {

enum class RowGate {
  passes,          // decided, and not slower (same, faster, equivalent, below threshold, changed)
  not_gated,       // --metrics leaves its metric out of the gate: shown only
  not_judged,      // the candidate measured it and the baseline did not (a new case): nothing to hold it to
  slower,          // fails
  no_measurement,  // fails (unless --pass_on=missing): the candidate has no succeeded trial of it
  undecided,       // too noisy, unreliable, confounded or unknown: exit 5 (unless --pass_on=undecided)
};

std::string_view to_string(RowGate g);
RowGate row_gate(const MetricComparison& m);

enum class GateStatus { passed, failed, undecided };
std::string_view to_string(GateStatus s);

struct GateResult {
  int slower = 0;
  int no_measurement = 0;
  int undecided = 0;
  GateStatus status = GateStatus::passed;
  int exit_status = 0;  // 0 passed, 1 failed, 5 undecided (common/errors.hpp)
};

// The rows together, with the settings' --pass_on.
GateResult gate(const RunComparison& report);

// The status and exit status of counted rows (`counts`' slower, no_measurement and undecided) once
// --pass_on is applied: the one rule, which gate() and `history changes --fail_on_change` use.
GateResult decide(GateResult counts, const PassOn& pass_on);

// "gate: failed (exit 1): 1 slower, 2 with no measurement from the candidate": one line for people.
std::string gate_line(const RunComparison& report);

// Whether the row counts against the gate once --pass_on is applied (JUnit's <failure>).
bool fails_gate(const MetricComparison& m, const PassOn& pass_on);

}  // namespace perfzero::compare
