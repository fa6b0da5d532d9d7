#pragma once
// What `perfzero compare` and `perfzero ab` decide, per case and metric, before any formatting
// (docs/compare.md).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfzero/metric.hpp"
#include "results/flags.hpp"

namespace perfzero::compare {

enum class Verdict {
  faster,           // significantly better beyond the minimum change
  slower,           // significantly worse beyond the minimum change: exit status 1 (when gated)
  same,             // no evidence of a change
  below_threshold,  // a significant change, smaller than the minimum change
  equivalent,       // no significant change, and shown to be within the minimum change both ways
  changed,          // significant and large, but the metric declares no direction: neither better nor worse
  too_noisy,        // too few trials to reach significance, or a spread above --max_cv
  unreliable,       // too few undisturbed trials: the host was busy (or the GPU throttled) while they ran
  unknown,          // `ab`: the budget ran out before the metric was decided
  confounded,       // two runs made at different times, and the load difference between them explains the direction
  missing,          // on one side only (or with no succeeded trial on one side)
};

std::string_view to_string(Verdict v);
// Every verdict, in the order the counts are printed.
const std::vector<Verdict>& all_verdicts();

// --pass_on: what the gate accepts besides a decided, not slower row (compare/gate.hpp).
struct PassOn {
  bool undecided = false;  // too noisy, unreliable, unknown: exit 0 instead of 5
  bool missing = false;    // a candidate that measured nothing: exit 0 instead of 1
};

struct Settings {
  double min_change = 0.05;  // relative change of the median that matters
  double alpha = 0.05;       // significance level of the Mann-Whitney U test
  double max_cv = 0.20;      // a side whose coefficient of variation is above this is too noisy
  int resamples = 2000;      // bootstrap resamplings for the confidence interval
  std::uint64_t seed = 1;    // the bootstrap's seed: the same runs give the same output
  bool use_flagged = false;  // judge disturbed trials too (--use_flagged)
  std::string metrics;       // --metrics: a regular expression; the rows whose metric it finds gate the exit code
  PassOn pass_on;
};

struct Side {
  std::vector<double> values;  // the measurements judged, in trial order
  int succeeded = 0;           // succeeded trials with this metric, disturbed ones included
  int disturbed = 0;           // of those, disturbed (left out of `values` unless --use_flagged)
  results::FlagCounts flags;   // which disturbances, on how many of those trials
  std::optional<double> median;
  std::optional<double> cv;
};

struct MetricComparison {
  std::string case_name;
  std::string metric;
  std::string unit;
  Direction direction = Direction::unspecified;
  Side baseline;
  Side candidate;
  std::optional<double> change;  // median(candidate) / median(baseline) - 1 (ab: the paired estimate)
  std::optional<double> ci_low;  // its confidence interval
  std::optional<double> ci_high;
  std::optional<double> p_value;  // Mann-Whitney U, two-sided (ab: Wilcoxon signed-rank)
  std::optional<double> z_score;  // --history: the candidate's median against the history's runs
  std::optional<int> pairs;       // ab: the pairs judged
  bool gated = true;              // a slower verdict here fails the gate (--metrics)
  Verdict verdict = Verdict::same;
  std::string reason;  // why, in a few words
};

// slower or faster, from which way the change went and which way the metric says is better; changed
// when it declares none.
Verdict directed(double change, Direction direction);

// Fills median, cv, change, interval, p-value, verdict and reason from the two sides' values.
void judge(MetricComparison& m, const Settings& settings);

// "host busy in 20/20 vs 3/20 trials": what disturbed the two sides.
std::string disturbance_words(const Side& baseline, const Side& candidate);

}  // namespace perfzero::compare
