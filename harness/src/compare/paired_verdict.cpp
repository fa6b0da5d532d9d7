#include "compare/paired_verdict.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "compare/paired.hpp"
#include "results/statistics.hpp"

namespace perfzero::compare {

namespace {

Side side_from(const std::vector<double>& values) {
  Side s;
  s.values = values;
  s.succeeded = static_cast<int>(values.size());
  const results::Stats stats = results::compute_stats(values);
  s.median = stats.median;
  s.cv = stats.cv;
  return s;
}

// The change as a ratio when every value is positive (log differences: a 10 % slowdown is the same
// step whatever the scale), else as differences relative to the baseline's median.
struct Changes {
  std::vector<double> d;
  bool logarithmic = true;
  double scale = 1;  // relative differences: the baseline median they are divided by
  double to_change(double x) const { return logarithmic ? std::expm1(x) : x; }
};

Changes changes_of(const PairedSeries& p, double baseline_median) {
  Changes out;
  const auto positive = [](double v) { return v > 0 && std::isfinite(v); };
  out.logarithmic = std::all_of(p.baseline.begin(), p.baseline.end(), positive) &&
                    std::all_of(p.candidate.begin(), p.candidate.end(), positive);
  out.scale = std::fabs(baseline_median) > 0 ? std::fabs(baseline_median) : 1.0;
  for (std::size_t i = 0; i < p.baseline.size(); ++i) {
    out.d.push_back(out.logarithmic ? std::log(p.candidate[i] / p.baseline[i])
                                    : (p.candidate[i] - p.baseline[i]) / out.scale);
  }
  return out;
}

// The whole interval on one side of zero and at least `min_change` from it.
bool beyond_threshold(double low, double high, double min_change) {
  return (low > 0 && low >= min_change) || (high < 0 && high <= -min_change);
}

// Why the last look left it open: a change whose size against the threshold is not known is not
// called beyond it.
std::string straddles(double low, bool excludes_zero) {
  if (!excludes_zero) return " straddles the threshold";
  return fmt::format(" {}: a change, but not shown beyond the threshold", low > 0 ? "is above zero" : "is below zero");
}

std::string pair_disturbances(const PairedSeries& p) {
  const auto n = static_cast<int>(p.baseline.size());
  std::string out;
  for (const auto& [flag, count] : p.flags) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} in {}/{} pairs", results::flag_words(flag), count, n);
  }
  return out;
}

}  // namespace

bool judge_pairs(MetricComparison& m, const PairedSeries& pairs, double level_alpha, const Settings& settings,
                 bool last) {
  m.baseline = side_from(pairs.baseline);
  m.candidate = side_from(pairs.candidate);
  const int n = static_cast<int>(pairs.baseline.size());
  m.pairs = n;
  m.baseline.disturbed = m.candidate.disturbed =
      static_cast<int>(std::count(pairs.disturbed.begin(), pairs.disturbed.end(), true));
  m.baseline.flags = m.candidate.flags = pairs.flags;
  m.change.reset();
  m.ci_low.reset();
  m.ci_high.reset();
  m.p_value.reset();
  if (n == 0) {
    m.verdict = last ? Verdict::missing : Verdict::unknown;
    m.reason = "no pair where both sides succeeded";
    return false;
  }
  const Changes c = changes_of(pairs, m.baseline.median.value_or(0));
  const PairedInterval interval = hodges_lehmann(c.d, level_alpha);
  m.change = c.to_change(interval.estimate);
  if (interval.low) m.ci_low = c.to_change(*interval.low);
  if (interval.high) m.ci_high = c.to_change(*interval.high);
  m.p_value = signed_rank_p(c.d);
  const double level = (1.0 - level_alpha) * 100.0;
  const std::string flags = pair_disturbances(pairs);
  const std::string measured =
      flags.empty() ? "" : fmt::format("; {} (measured: both sides of a pair share them)", flags);
  const bool bounded = m.ci_low && m.ci_high;
  const bool excludes_zero = bounded && (*m.ci_low > 0 || *m.ci_high < 0);
  const bool inside =
      bounded && settings.min_change > 0 && *m.ci_low > -settings.min_change && *m.ci_high < settings.min_change;
  // The interval's near end, not the estimate, must be past the threshold: after an early stop the
  // estimate overstates the change (stopping when it looks large selects the draws that are), while
  // the repeated confidence interval covers it whatever the stopping rule (docs/compare.md).
  if (bounded && beyond_threshold(*m.ci_low, *m.ci_high, settings.min_change)) {
    m.verdict = directed(*m.change, m.direction);
    m.reason = fmt::format("decided after {} pairs: the {:.2f}% interval lies beyond {}{:.1f}%{}", n, level,
                           *m.ci_low > 0 ? "+" : "-", settings.min_change * 100, measured);
    return true;
  }
  if (inside) {
    m.verdict = excludes_zero ? Verdict::below_threshold : Verdict::equivalent;
    m.reason = fmt::format("decided after {} pairs: the {:.2f}% interval lies within ±{:.1f}%{}", n, level,
                           settings.min_change * 100, measured);
    return true;
  }
  m.verdict = Verdict::unknown;
  m.reason = last ? fmt::format("undecided after {} pairs (the {:.2f}% interval{}){}", n, level,
                                bounded ? straddles(*m.ci_low, excludes_zero) : " needs more pairs", measured)
                  : fmt::format("open after {} pairs{}", n, measured);
  return false;
}

}  // namespace perfzero::compare
