// The verdict rules of docs/compare.md, in the order they are applied.
#include <algorithm>
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
    case Verdict::below_threshold:
      return "below threshold";
    case Verdict::equivalent:
      return "equivalent";
    case Verdict::changed:
      return "changed";
    case Verdict::too_noisy:
      return "too noisy";
    case Verdict::unreliable:
      return "unreliable";
    case Verdict::unknown:
      return "unknown";
    case Verdict::confounded:
      return "confounded";
    case Verdict::missing:
      return "missing";
  }
  return "same";
}

const std::vector<Verdict>& all_verdicts() {
  static const std::vector<Verdict> all = {Verdict::slower,          Verdict::faster,     Verdict::same,
                                           Verdict::below_threshold, Verdict::equivalent, Verdict::changed,
                                           Verdict::too_noisy,       Verdict::unreliable, Verdict::confounded,
                                           Verdict::unknown,         Verdict::missing};
  return all;
}

std::string disturbance_words(const Side& baseline, const Side& candidate) {
  results::FlagCounts names = baseline.flags;
  for (const auto& [flag, n] : candidate.flags) {
    bool known = false;
    for (const auto& [have, m] : names) known = known || have == flag;
    if (!known) names.emplace_back(flag, 0);
  }
  auto count_of = [](const Side& s, const std::string& flag) {
    for (const auto& [f, n] : s.flags) {
      if (f == flag) return n;
    }
    return 0;
  };
  std::string out;
  for (const auto& [flag, ignored] : names) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} in {}/{} vs {}/{} trials", results::flag_words(flag), count_of(baseline, flag),
                       baseline.succeeded, count_of(candidate, flag), candidate.succeeded);
  }
  return out;
}

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

namespace {

void describe_side(Side& side) {
  // A side given as values alone (the history's per-run medians) has one succeeded trial per value.
  side.succeeded = std::max(side.succeeded, static_cast<int>(side.values.size()));
  const results::Stats s = results::compute_stats(side.values);
  side.median = s.median;
  side.cv = s.cv;
}

bool cannot_reach(std::size_t a, std::size_t b, double alpha) { return smallest_attainable_p(a, b) >= alpha; }

// Too few undisturbed trials to decide anything, while the disturbed ones would have been enough:
// the host, not the method, is what the figures would show.
bool unreliable(MetricComparison& m, const Settings& settings) {
  if (settings.use_flagged || (m.baseline.disturbed == 0 && m.candidate.disturbed == 0)) return false;
  if (!cannot_reach(m.baseline.values.size(), m.candidate.values.size(), settings.alpha)) return false;
  m.verdict = Verdict::unreliable;
  m.reason = fmt::format("{}; {} vs {} undisturbed trials left", disturbance_words(m.baseline, m.candidate),
                         m.baseline.values.size(), m.candidate.values.size());
  return true;
}

bool too_noisy(MetricComparison& m, const Settings& settings) {
  if (cannot_reach(m.baseline.values.size(), m.candidate.values.size(), settings.alpha)) {
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

// Two one-sided tests at alpha, each against a change of min_change one way: both reject exactly
// when the (1 - 2 alpha) interval lies inside (-min_change, +min_change).
bool shown_equivalent(const MetricComparison& m, const Settings& settings) {
  if (settings.min_change <= 0) return false;
  const auto ci = bootstrap_median_change(m.baseline.values, m.candidate.values, settings.resamples, settings.seed,
                                          1.0 - 2.0 * settings.alpha);
  return ci && ci->low > -settings.min_change && ci->high < settings.min_change;
}

// What the verdict rests on, when trials were left out or kept despite their flags.
void note_disturbances(MetricComparison& m, const Settings& settings) {
  if (m.baseline.disturbed == 0 && m.candidate.disturbed == 0) return;
  if (m.verdict == Verdict::unreliable || m.verdict == Verdict::missing) return;
  m.reason +=
      settings.use_flagged
          ? fmt::format("; disturbed trials judged (--use_flagged): {}", disturbance_words(m.baseline, m.candidate))
          : fmt::format("; {} + {} disturbed trials left out", m.baseline.disturbed, m.candidate.disturbed);
}

void decide(MetricComparison& m, const Settings& settings) {
  if (unreliable(m, settings)) return;
  if (too_noisy(m, settings)) {
    m.verdict = Verdict::too_noisy;
    return;
  }
  const bool significant = *m.p_value < settings.alpha;
  if (!m.change && *m.baseline.median == 0) {
    // No ratio from a zero baseline: any difference of the medians is an unbounded change, so a
    // significant one decides by its sign (it was 'same', and a 0 -> 5 ms regression passed the gate).
    const double difference = *m.candidate.median - *m.baseline.median;
    if (significant && difference != 0) {
      m.verdict = directed(difference, m.direction);
      m.reason = fmt::format("p = {:.3g}; from a baseline median of 0 (no percentage)", *m.p_value);
    } else {
      m.verdict = Verdict::same;
      m.reason = significant ? "significant in the tails, but the medians are equal"
                             : fmt::format("p = {:.3g} >= {}", *m.p_value, settings.alpha);
    }
    return;
  }
  // The interval must lie on one side of zero too: a p-value alone can come from a shift in the tails.
  const bool interval_agrees = m.ci_low && m.ci_high && (*m.ci_low > 0 || *m.ci_high < 0);
  const bool large = m.change && std::fabs(*m.change) >= settings.min_change;
  if (significant && interval_agrees && large) {
    m.verdict = directed(*m.change, m.direction);
    m.reason = m.verdict == Verdict::changed ? "significant; the metric declares no direction"
                                             : fmt::format("p = {:.3g}", *m.p_value);
  } else if (significant && interval_agrees) {
    m.verdict = Verdict::below_threshold;
    m.reason = fmt::format("p = {:.3g}; a real change, smaller than {:.1f}%", *m.p_value, settings.min_change * 100);
  } else if (significant) {
    m.verdict = Verdict::same;
    m.reason = "the interval includes no change";
  } else if (shown_equivalent(m, settings)) {
    m.verdict = Verdict::equivalent;
    m.reason = fmt::format("p = {:.3g}; within ±{:.1f}% (two one-sided tests)", *m.p_value, settings.min_change * 100);
  } else {
    m.verdict = Verdict::same;
    m.reason = fmt::format("p = {:.3g} >= {}", *m.p_value, settings.alpha);
  }
}

}  // namespace

void judge(MetricComparison& m, const Settings& settings) {
  describe_side(m.baseline);
  describe_side(m.candidate);
  if (m.baseline.succeeded == 0 || m.candidate.succeeded == 0) {
    m.verdict = Verdict::missing;
    m.reason = m.baseline.succeeded == 0 ? "no succeeded trial in the baseline" : "no succeeded trial in the candidate";
    return;
  }
  if (m.baseline.values.empty() || m.candidate.values.empty()) {
    unreliable(m, settings);  // every trial of a side was disturbed
    return;
  }
  if (*m.baseline.median != 0) m.change = *m.candidate.median / *m.baseline.median - 1.0;
  m.p_value = mann_whitney_u(m.baseline.values, m.candidate.values).p_value;
  if (const auto ci =
          bootstrap_median_change(m.baseline.values, m.candidate.values, settings.resamples, settings.seed)) {
    m.ci_low = ci->low;
    m.ci_high = ci->high;
  }
  decide(m, settings);
  note_disturbances(m, settings);
}

}  // namespace perfzero::compare
