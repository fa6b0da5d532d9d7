#include "history/changes_gate.hpp"

#include <fmt/format.h>

#include "compare/gated_metrics.hpp"

namespace perfzero::history {

ChangesGate changes_gate(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series,
                         const history::SeriesLeftOut& left_out, const compare::ChangePointSettings& settings,
                         const std::string& metric_pattern, const compare::PassOn& pass_on) {
  ChangesGate out;
  out.pass_on = pass_on;
  out.min_points = 2 * settings.min_segment;
  compare::GateResult counts;
  int judged = 0;
  for (const auto& s : series) {
    if (!compare::is_gated(metric_pattern, s.metric, s.direction)) continue;
    ++judged;
    const SeriesChange* latest = nullptr;
    for (const auto& c : changes) {
      if (c.series == &s) latest = &c;
    }
    if (latest != nullptr && latest->verdict == compare::Verdict::slower) {
      ++counts.slower;
    } else if (latest == nullptr && s.points.size() < out.min_points) {
      ++out.too_short;
    }
  }
  // An emptied series has no point left to say its direction: it counts unless its name alone keeps
  // it out of the gate (a counter, a command's CPU halves).
  for (const auto& [case_name, metric] : left_out.emptied)
    out.emptied += compare::is_gated(metric_pattern, metric, Direction::lower_is_better) ? 1 : 0;
  out.no_series = judged == 0 && out.emptied == 0;
  counts.undecided = out.too_short + out.emptied + (out.no_series ? 1 : 0);
  out.result = compare::decide(counts, pass_on);
  return out;
}

std::string changes_gate_line(const ChangesGate& gate) {
  const auto& g = gate.result;
  std::string parts;
  const auto add = [&parts](int n, const std::string& what) {
    if (n > 0) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", n, what);
  };
  add(g.slower, "series slower at their latest change point");
  add(gate.emptied, "series left empty by the flags (every run's trials of them disturbed; --use_flagged judges them)");
  add(gate.too_short, fmt::format("series too short to split (fewer than {} runs)", gate.min_points));
  if (gate.no_series) parts += std::string(parts.empty() ? "" : ", ") + "no series to judge";
  std::string line = fmt::format("gate: {} (exit {})", compare::to_string(g.status), g.exit_status);
  if (!parts.empty()) line += ": " + parts;
  if (g.undecided > 0 && gate.pass_on.undecided) line += " (undecided accepted: --pass_on=undecided)";
  if (g.status == compare::GateStatus::undecided) line += "; --pass_on=undecided accepts them";
  return line + "\n";
}

nlohmann::json changes_gate_json(const ChangesGate& gate) {
  return {{"status", std::string(compare::to_string(gate.result.status))},
          {"exit_status", gate.result.exit_status},
          {"slower", gate.result.slower},
          {"undecided", gate.result.undecided},
          {"left_empty", gate.emptied},
          {"too_short", gate.too_short},
          {"no_series", gate.no_series},
          {"pass_on", {{"undecided", gate.pass_on.undecided}, {"missing", gate.pass_on.missing}}}};
}

}  // namespace perfzero::history
