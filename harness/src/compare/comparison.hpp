#pragma once
// What `perfzero compare` decides, per case and metric, before any formatting (docs/compare.md).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfzero/metric.hpp"

namespace perfzero::compare {

enum class Verdict {
  faster,     // significantly better beyond the minimum change
  slower,     // significantly worse beyond the minimum change: exit status 1
  same,       // no significant change, or one smaller than the minimum change
  changed,    // significant, but the metric declares no direction, so neither better nor worse
  too_noisy,  // too few trials to reach significance, or a spread above --max_cv
  missing,    // on one side only (or with no succeeded trial on one side)
};

std::string_view to_string(Verdict v);

struct Settings {
  double min_change = 0.05;  // relative change of the median that matters
  double alpha = 0.05;       // significance level of the Mann-Whitney U test
  double max_cv = 0.20;      // a side whose coefficient of variation is above this is too noisy
  int resamples = 2000;      // bootstrap resamplings for the confidence interval
  std::uint64_t seed = 1;    // the bootstrap's seed: the same runs give the same output
};

struct Side {
  std::vector<double> values;  // one per succeeded trial, in trial order
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
  std::optional<double> change;  // median(candidate) / median(baseline) - 1
  std::optional<double> ci_low;  // its bootstrap confidence interval
  std::optional<double> ci_high;
  std::optional<double> p_value;  // Mann-Whitney U, two-sided
  std::optional<double> z_score;  // --history: the candidate's median against the history's runs
  Verdict verdict = Verdict::same;
  std::string reason;  // why, in a few words
};

// Fills median, cv, change, interval, p-value, verdict and reason from the two sides' values.
void judge(MetricComparison& m, const Settings& settings);

}  // namespace perfzero::compare
