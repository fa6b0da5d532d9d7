#pragma once
// How the report's figures read, shared by the Markdown and the HTML page: numbers with SI
// prefixes ("444 M points/s"), costs per a power of 1000 runs ("$4.85 per million runs"), ratios
// with their intervals ("1.39x [1.30x, 1.48x]", "tie: 1.03x [0.97x, 1.10x]"), the summary of a
// ranking, and which trials were left out. CSV and JSON keep every digit instead.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/si_number.hpp"
#include "fleet_report/report_model.hpp"

namespace perfzero::fleet_report {

// A few significant digits, "" for none: vCPUs, seconds.
std::string number(const std::optional<double>& value);
// "$0.0123", "$123", "$1.18e-05" (prices per hour; per-run costs use money_per).
std::string money(const std::optional<double>& usd);
// "$0.012 per run", "$4.85 per million runs": scaled by a power of 1000 until at least $0.10.
// `one` and `many`: the unit's singular and plural ("run", "runs").
std::string money_per(const std::optional<double>& usd, std::string_view one, std::string_view many);
// Measured values with SI prefixes, as every human-facing table writes them (common/si_number.hpp).
using text::si;
using text::si_ticks;

// "2.5 ms", "12.3 s", "37.5 min", "2.1 h".
std::string duration_text(double seconds);

// A median and its range at the median's prefix: "444 M points/s (408–480 M points/s)", "3.9 ms
// (2.6–10.2 ms)"; "" without a median.
std::string si_spread(const results::Stats& stats, std::string_view unit);

// "1.39x [1.30x, 1.48x]"; a tie starts with "tie: "; no interval: "tie: 1.03x (fewer than 3 trials)".
std::string ratio_text(const Ratio& ratio, std::size_t min_trials);
// The speedup column: ratio_text, or "baseline" for the baseline itself, "" without one.
std::string speedup_text(const Cell& cell, const std::string& config_key, const FleetReport& report);

// One sentence on a method's fastest (or cheapest) configuration, e.g.
// "c7i.2xlarge: 1.39x [1.30x, 1.48x] the speed of c7i.large, the runner-up" or
// "tie: 1.03x [0.97x, 1.10x] between c7i.xlarge and c7i.large (under 5%, or not told apart ...)".
// Empty when no configuration qualifies.
std::string fastest_summary(const MethodRow& row, const FleetReport& report);
std::string cheapest_summary(const MethodRow& row, const FleetReport& report);

// "3 of 10 trials host busy, left out" (or "kept (--use_flagged)"); "" when none was disturbed.
std::string disturbance_note(const Cell& cell, bool use_flagged);

// What the runs of a configuration had: "2 vCPUs, 15.6 GiB, 0 GPUs" ("2/8 vCPUs" when runs differ).
std::string measured_text(const Configuration& config);

// A scaling study's speedup, "1.80x" (two digits where it is under 0.1: "0.0019x"), and
// efficiency, "90%" ("2.8%", "0.19%" when small); "" for none.
std::string scaling_ratio_text(const std::optional<double>& ratio);
std::string efficiency_text(const std::optional<double>& efficiency);

// The experiment's cost (Configuration::experiment) as the Markdown and HTML tables show it: the
// column names, and one configuration's cells; "" where a figure is unknown.
const std::vector<std::string>& experiment_columns();
std::vector<std::string> experiment_cells(const Configuration& config);
// "$12.40 as run for 6 instances (3.1 h billed); all on demand $20.10, all spot $10.05; not in the
// total: X (its bill is unknown)".
std::string experiment_total_text(const ExperimentTotal& total);

// "ok", "not run", or "failed 2/5: why".
std::string cell_status(const Cell& cell);

// "left out (host busy) 7/7" when every trial succeeded and every one was left out as disturbed, so
// the cell has no figure though nothing failed; "" otherwise.
std::string left_out_label(const Cell& cell);

// What a bar or a heat-map cell without a figure says: "not run", left_out_label(), else "failed 2/5".
std::string no_figure_label(const Cell& cell);

// Marks of a configuration in a method's ranking: "fastest", "tie for fastest", "" ...
std::string speed_mark(const MethodRow& row, std::size_t config);
std::string cost_mark(const MethodRow& row, std::size_t config);

// The ranking table's optional columns that hold something for at least one configuration: an empty
// column is left out (no --baseline: no speedups; no catalog: no costs).
struct ShownColumns {
  bool wall = false;    // every trial left out or failed everywhere: no figure at all
  bool metric = false;  // the main metric's column (a method with one)
  bool cost_per_run = false;
  bool cost_per_unit = false;
  bool units_per_usd = false;
  bool per_vcpu = false;
  bool per_ocpu = false;
  bool speedup = false;
};
ShownColumns shown_columns(const MethodRow& row);

}  // namespace perfzero::fleet_report
