#include "compare/gate.hpp"

#include <fmt/format.h>

#include "common/errors.hpp"

namespace perfzero::compare {

std::string_view to_string(RowGate g) {
  switch (g) {
    case RowGate::passes:
      return "passes";
    case RowGate::not_gated:
      return "not gated";
    case RowGate::not_judged:
      return "not judged";
    case RowGate::slower:
      return "slower";
    case RowGate::no_measurement:
      return "no measurement";
    case RowGate::undecided:
      return "undecided";
  }
  return "undecided";
}

std::string_view to_string(GateStatus s) {
  switch (s) {
    case GateStatus::passed:
      return "passed";
    case GateStatus::failed:
      return "failed";
    case GateStatus::undecided:
      return "undecided";
  }
  return "undecided";
}

RowGate row_gate(const MetricComparison& m) {
  if (!m.gated) return RowGate::not_gated;
  switch (m.verdict) {
    case Verdict::slower:
      return RowGate::slower;
    case Verdict::missing:
      // The candidate is what the gate holds to account: nothing measured is a failure, whatever the
      // baseline did; a baseline that measured nothing (a case new in the candidate) leaves nothing to
      // hold it to.
      return m.candidate.succeeded == 0 ? RowGate::no_measurement : RowGate::not_judged;
    case Verdict::too_noisy:
    case Verdict::unreliable:
    case Verdict::confounded:
    case Verdict::unknown:
      return RowGate::undecided;
    case Verdict::faster:
    case Verdict::same:
    case Verdict::below_threshold:
    case Verdict::equivalent:
    case Verdict::changed:
      return RowGate::passes;
  }
  return RowGate::undecided;
}

bool fails_gate(const MetricComparison& m, const PassOn& pass_on) {
  switch (row_gate(m)) {
    case RowGate::slower:
      return true;
    case RowGate::no_measurement:
      return !pass_on.missing;
    case RowGate::undecided:
      return !pass_on.undecided;
    default:
      return false;
  }
}

GateResult gate(const RunComparison& report) {
  GateResult out;
  for (const auto& m : report.rows) {
    switch (row_gate(m)) {
      case RowGate::slower:
        ++out.slower;
        break;
      case RowGate::no_measurement:
        ++out.no_measurement;
        break;
      case RowGate::undecided:
        ++out.undecided;
        break;
      default:
        break;
    }
  }
  return decide(out, report.settings.pass_on);
}

GateResult decide(GateResult counts, const PassOn& pass_on) {
  counts.status = GateStatus::passed;
  counts.exit_status = 0;
  if (counts.slower > 0 || (counts.no_measurement > 0 && !pass_on.missing)) {
    counts.status = GateStatus::failed;
    counts.exit_status = to_int(ExitCode::some_not_succeeded);
  } else if (counts.undecided > 0 && !pass_on.undecided) {
    counts.status = GateStatus::undecided;
    counts.exit_status = to_int(ExitCode::undecided);
  }
  return counts;
}

std::string gate_line(const RunComparison& report) {
  const GateResult g = gate(report);
  std::string parts;
  const auto add = [&parts](int n, const std::string& what) {
    if (n == 0) return;
    parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", n, what);
  };
  add(g.slower, "slower");
  add(g.no_measurement, report.settings.pass_on.missing
                            ? "with no measurement from the candidate (accepted: --pass_on=missing)"
                            : "with no measurement from the candidate");
  add(g.undecided, report.settings.pass_on.undecided ? "undecided (accepted: --pass_on=undecided)"
                                                     : "undecided (too noisy, unreliable, confounded or unknown)");
  std::string line = fmt::format("gate: {} (exit {})", to_string(g.status), g.exit_status);
  if (!parts.empty()) line += ": " + parts;
  if (g.status == GateStatus::undecided) line += "; --pass_on=undecided accepts them";
  return line + "\n";
}

}  // namespace perfzero::compare
