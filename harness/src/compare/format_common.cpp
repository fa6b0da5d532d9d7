// What the three outputs of `perfzero compare` print alike.
#include <fmt/format.h>

#include "compare/formats.hpp"

namespace perfzero::compare {

std::string percent(const std::optional<double>& fraction) {
  return fraction ? fmt::format("{:+.1f}%", *fraction * 100) : std::string("-");
}

std::string interval(const MetricComparison& m) {
  if (!m.ci_low || !m.ci_high) return "-";
  return fmt::format("[{}, {}]", percent(m.ci_low), percent(m.ci_high));
}

std::string number(const std::optional<double>& v) { return v ? fmt::format("{:.4g}", *v) : std::string("-"); }

std::string significance(const MetricComparison& m) {
  if (m.p_value) return fmt::format("{:.3g}", *m.p_value);
  if (m.z_score) return fmt::format("z={:.3g}", *m.z_score);
  return "-";
}

std::string headline(const Report& report) {
  std::string out = fmt::format("{} slower, {} faster, {} same", report.count(Verdict::slower),
                                report.count(Verdict::faster), report.count(Verdict::same));
  if (const int n = report.count(Verdict::changed)) out += fmt::format(", {} changed", n);
  if (const int n = report.count(Verdict::too_noisy)) out += fmt::format(", {} too noisy", n);
  if (const int n = report.count(Verdict::missing)) out += fmt::format(", {} missing on one side", n);
  return out;
}

}  // namespace perfzero::compare
