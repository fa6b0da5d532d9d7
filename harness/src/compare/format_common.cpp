// What the three outputs of `perfzero compare` print alike.
#include <algorithm>

#include <fmt/format.h>

#include "common/si_number.hpp"
#include "compare/formats.hpp"
#include "compare/gate.hpp"

namespace perfzero::compare {

std::string percent(const std::optional<double>& fraction) {
  return fraction ? fmt::format("{:+.1f}%", *fraction * 100) : std::string("-");
}

std::string interval(const MetricComparison& m) {
  if (!m.ci_low || !m.ci_high) return "-";
  return fmt::format("[{}, {}]", percent(m.ci_low), percent(m.ci_high));
}

std::string value_text(const std::optional<double>& v, std::string_view unit) { return text::si_or(v, unit, "-"); }

std::string significance(const MetricComparison& m) {
  if (m.p_value) return fmt::format("{:.3g}", *m.p_value);
  if (m.z_score) return fmt::format("z={:.3g}", *m.z_score);
  return "-";
}

std::string headline(const RunComparison& report) {
  std::string out = fmt::format("{} slower, {} faster, {} same", report.count(Verdict::slower),
                                report.count(Verdict::faster), report.count(Verdict::same));
  for (const Verdict v : all_verdicts()) {
    if (v == Verdict::slower || v == Verdict::faster || v == Verdict::same) continue;
    if (const int n = report.count(v)) {
      out += fmt::format(", {} {}{}", n, to_string(v), v == Verdict::missing ? " on one side" : "");
    }
  }
  const auto ungated_slower = std::count_if(report.rows.begin(), report.rows.end(),
                                            [](const auto& r) { return !r.gated && r.verdict == Verdict::slower; });
  if (ungated_slower > 0) out += fmt::format(" ({} slower not gated by --metrics)", ungated_slower);
  return out;
}

std::string verdict_text(const MetricComparison& m) {
  std::string out(to_string(m.verdict));
  if (!m.gated && m.verdict == Verdict::slower) out += " (not gated)";
  // Why it cannot decide, where it is read: "unreliable (host busy in 20/20 vs 20/20 trials)".
  if (m.verdict == Verdict::unreliable) out += " (" + disturbance_words(m.baseline, m.candidate) + ")";
  // The direction it read, undecided: "confounded (reads +10.0%; runs made at different times)".
  if (m.verdict == Verdict::confounded) {
    out += m.change && *m.change != 0 ? fmt::format(" (reads {}; runs made at different times)", percent(m.change))
                                      : " (runs made at different times)";
  }
  return out;
}

std::string advice(const RunComparison& report) {
  std::string out = report.confounding.empty() ? "" : report.confounding + "\n";
  if (const int n = report.count(Verdict::unreliable)) {
    out += fmt::format(
        "{} row(s) unreliable: most trials ran while the host was busy (or the GPU throttled), so their figures "
        "show the machine, not the change. Run again on a quieter machine, run both sides interleaved with "
        "`perfzero ab` (its pairs share the conditions, so a busy host cannot decide), or judge them anyway with "
        "--use_flagged.\n",
        n);
  }
  // ab judges pairs, whose two trials share what disturbed them: no flag of the user's was at work.
  if (report.settings.use_flagged && report.design.empty()) {
    const bool any = std::any_of(report.rows.begin(), report.rows.end(),
                                 [](const auto& r) { return r.baseline.disturbed + r.candidate.disturbed > 0; });
    if (any) out += "--use_flagged: disturbed trials (host busy, GPU throttled) were judged as measurements.\n";
  }
  const auto gated_unknown = std::count_if(report.rows.begin(), report.rows.end(),
                                           [](const auto& r) { return r.gated && r.verdict == Verdict::unknown; });
  if (const auto n = gated_unknown) {
    out += fmt::format(
        "{} row(s) unknown: the budget (--max_trials, --max_time) ran out before they were decided; "
        "run longer to decide them.\n",
        n);
  }
  return out + gate_line(report);
}

}  // namespace perfzero::compare
