#pragma once
// `perfzero history changes --fail_on_change` (docs/history.md): what the change points mean for the
// gate, decided by the one verdict policy (compare/gate.hpp). A series whose latest change point is
// slower fails; a series the change points cannot be judged in is undecided: one the flags left
// empty (every run's trials of it disturbed), one too short to split (fewer than 2 * min_segment
// runs), or no series at all. The rest pass. The series that gate are those compare gates
// (compare/gated_metrics.hpp), or those --metric names.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare/gate.hpp"
#include "history/history_changes.hpp"

namespace perfzero::history {

struct ChangesGate {
  compare::GateResult result;
  int too_short = 0;           // of result.undecided: series too short to split
  int emptied = 0;             // of result.undecided: series the flags left empty
  bool no_series = false;      // nothing at all to judge (one undecided)
  std::size_t min_points = 4;  // the shortest series that can be split
  compare::PassOn pass_on;     // what --pass_on accepted
};

ChangesGate changes_gate(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series,
                         const history::SeriesLeftOut& left_out, const compare::ChangePointSettings& settings,
                         const std::string& metric_pattern, const compare::PassOn& pass_on);

// "gate: undecided (exit 5): 2 series left empty by the flags (--use_flagged judges them); --pass_on=undecided
// accepts them": one line for people.
std::string changes_gate_line(const ChangesGate& gate);
nlohmann::json changes_gate_json(const ChangesGate& gate);

}  // namespace perfzero::history
