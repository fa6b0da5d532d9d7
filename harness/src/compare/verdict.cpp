// The verdict rules of docs/compare.md, in the order they are applied.
#include <cmath>

#include <fmt/format.h>

#include "compare/comparison.hpp"
#include "compare/significance.hpp"
#include "results/statistics.hpp"

namespace perfzero::compare {

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::faster:
      return "faster";
    case Verdict::slower:
      return "slower";
    case Verdict::same:
      return "same";
    case Verdict::changed:
      return "changed";
    case Verdict::too_noisy:
      return "too noisy";
    case Verdict::missing:
      return "missing";
  }
  return "same";
}

namespace {

void describe_side(Side& side) {
  const results::Stats s = results::compute_stats(side.values);
  side.median = s.median;
  side.cv = s.cv;
}

// Better or worse, from which way the median moved and which way the metric says is better.
Verdict directed(double change, Direction direction) {
  switch (direction) {
    case Direction::lower_is_better:
      return change > 0 ? Verdict::slower : Verdict::faster;
    case Direction::higher_is_better:
      return change < 0 ? Verdict::slower : Verdict::faster;
    case Direction::unspecified:
      break;
  }
  return Verdict::changed;
}

bool too_noisy(MetricComparison& m, const Settings& settings) {
  const double best_p = smallest_attainable_p(m.baseline.values.size(), m.candidate.values.size());
  if (best_p >= settings.alpha) {
    m.reason = fmt::format("{} vs {} trials cannot reach p < {}", m.baseline.values.size(), m.candidate.values.size(),
                           settings.alpha);
    return true;
  }
  for (const auto* side : {&m.baseline, &m.candidate}) {
    if (side->cv && *side->cv > settings.max_cv) {
      m.reason = fmt::format("{} spread {:.1f}% > {:.1f}%", side == &m.baseline ? "baseline" : "candidate",
                             *side->cv * 100, settings.max_cv * 100);
      return true;
    }
  }
  return false;
}

}  // namespace

void judge(MetricComparison& m, const Settings& settings) {
  describe_side(m.baseline);
  describe_side(m.candidate);
  if (m.baseline.values.empty() || m.candidate.values.empty()) {
    m.verdict = Verdict::missing;
    m.reason = m.baseline.values.empty() ? "no succeeded trial in the baseline" : "no succeeded trial in the candidate";
    return;
  }
  if (*m.baseline.median != 0) m.change = *m.candidate.median / *m.baseline.median - 1.0;
  m.p_value = mann_whitney_u(m.baseline.values, m.candidate.values).p_value;
  if (const auto ci =
          bootstrap_median_change(m.baseline.values, m.candidate.values, settings.resamples, settings.seed)) {
    m.ci_low = ci->low;
    m.ci_high = ci->high;
  }
  if (too_noisy(m, settings)) {
    m.verdict = Verdict::too_noisy;
    return;
  }
  const bool significant = *m.p_value < settings.alpha;
  // The interval must lie on one side of zero too: a p-value alone can come from a shift in the tails.
  const bool interval_agrees = m.ci_low && m.ci_high && (*m.ci_low > 0 || *m.ci_high < 0);
  const bool large = m.change && std::fabs(*m.change) >= settings.min_change;
  if (!significant) {
    m.verdict = Verdict::same;
    m.reason = fmt::format("p = {:.3g} >= {}", *m.p_value, settings.alpha);
  } else if (!large || !interval_agrees) {
    m.verdict = Verdict::same;
    m.reason =
        large ? "the interval includes no change" : fmt::format("change below {:.1f}%", settings.min_change * 100);
  } else {
    m.verdict = directed(*m.change, m.direction);
    m.reason = m.verdict == Verdict::changed ? "significant; the metric declares no direction"
                                             : fmt::format("p = {:.3g}", *m.p_value);
  }
}

}  // namespace perfzero::compare
