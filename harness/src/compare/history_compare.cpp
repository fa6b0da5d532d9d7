#include "compare/history_compare.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "compare/significance.hpp"
#include "results/statistics.hpp"

namespace perfzero::compare {

namespace {

void judge_against_history(MetricComparison& m, const Settings& settings, double z_threshold) {
  const results::Stats base = results::compute_stats(m.baseline.values);
  const results::Stats cand = results::compute_stats(m.candidate.values);
  m.baseline.median = base.median;
  m.baseline.cv = base.cv;
  m.candidate.median = cand.median;
  m.candidate.cv = cand.cv;
  if (base.median && !cand.median && m.candidate.succeeded > 0) {
    m.verdict = Verdict::unreliable;
    m.reason = disturbance_words(m.baseline, m.candidate);
    return;
  }
  if (!base.median || !cand.median) {
    m.verdict = Verdict::missing;
    m.reason = base.median ? "no succeeded trial in the candidate" : "not in the history";
    return;
  }
  if (*base.median != 0) m.change = *cand.median / *base.median - 1.0;
  if (const auto ci =
          bootstrap_median_change(m.baseline.values, m.candidate.values, settings.resamples, settings.seed)) {
    m.ci_low = ci->low;
    m.ci_high = ci->high;
  }
  if (m.baseline.values.size() < kMinHistoryRuns) {
    m.verdict = Verdict::too_noisy;
    m.reason = fmt::format("{} run(s) in the history; {} needed", m.baseline.values.size(), kMinHistoryRuns);
    return;
  }
  const double spread = base.stddev.value_or(0);
  const double distance = *cand.median - *base.mean;
  m.z_score = spread > 0 ? distance / spread
                         : (distance == 0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), distance));
  const bool large = m.change && std::fabs(*m.change) >= settings.min_change;
  if (std::fabs(*m.z_score) <= z_threshold) {
    m.verdict = Verdict::same;
    m.reason = fmt::format("|z| = {:.2g} <= {}", std::fabs(*m.z_score), z_threshold);
  } else if (!large) {
    m.verdict = Verdict::below_threshold;
    m.reason = fmt::format("z = {:.3g}; a step smaller than {:.1f}%", *m.z_score, settings.min_change * 100);
  } else {
    m.verdict = directed(*m.change, m.direction);
    m.reason = fmt::format("step change: z = {:.3g}", *m.z_score);
  }
}

}  // namespace

// Each history run contributes one value per case and metric: its median over the run's trials, so a
// run with many trials weighs no more than one with few.
// Disturbed trials are left out of each run's median as they are out of a comparison of two runs.
HistoryMedians run_medians(const std::vector<results::Run>& history, bool use_flagged) {
  HistoryMedians out;
  for (const auto& run : history) {
    for (const auto& c : collect_values(run)) {
      for (const auto& s : c.series) {
        if (const auto median = results::compute_stats(side_of(c, s, use_flagged).values).median)
          out[{c.case_name, s.metric}].push_back(*median);
      }
    }
  }
  return out;
}

RunComparison compare_with_history(const HistoryMedians& medians, const results::Run& candidate,
                                   const Settings& settings, double z_threshold, const HistoryLeftOut& left_out) {
  RunComparison out;
  out.settings = settings;
  out.z_threshold = z_threshold;
  out.candidate = {"", candidate.info.execution_id, candidate.info.execution_label, false, 0};
  for (const auto& c : collect_values(candidate)) {
    for (const auto& s : c.series) {
      MetricComparison row;
      row.case_name = c.case_name;
      row.metric = s.metric;
      row.unit = s.unit;
      row.direction = s.direction;
      row.candidate = side_of(c, s, settings.use_flagged);
      row.gated = is_gated(settings.metrics, s.metric, s.direction);
      if (s.metric == kTreeCpuRow && settings.metrics.empty() && !c.series.empty() &&
          !tree_was_busy(s.values, c.series.front().values)) {
        row.gated = false;  // the wall time is the first series (compare_runs.hpp)
      }
      if (const auto it = medians.find({c.case_name, s.metric}); it != medians.end()) row.baseline.values = it->second;
      judge_against_history(row, settings, z_threshold);
      // Not in the history only because each of its runs there was disturbed: the history cannot
      // decide, which is not the same as never having measured it.
      if (const auto it = left_out.find({c.case_name, s.metric});
          row.verdict == Verdict::missing && row.candidate.succeeded > 0 && it != left_out.end() && it->second > 0) {
        row.verdict = Verdict::unreliable;
        row.reason = fmt::format(
            "every trial of its {} run(s) in the history was disturbed (host busy, GPU throttled); --use_flagged "
            "judges them",
            it->second);
      }
      out.rows.push_back(std::move(row));
    }
  }
  return out;
}

}  // namespace perfzero::compare
