#pragma once
// The statistics every output shows, defined once. A figure that has no data (no value, or a spread
// of one value) is nullopt, written as JSON null and an empty CSV cell, never as 0.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/flags.hpp"
#include "results/model.hpp"

namespace perfzero::results {

struct Stats {
  std::size_t count = 0;
  std::optional<double> median;
  std::optional<double> mean;
  std::optional<double> stddev;  // sample standard deviation (n-1): needs two values
  std::optional<double> min;
  std::optional<double> max;
  std::optional<double> cv;  // stddev / |mean|: needs two values and a non-zero mean
  // Percentiles by linear interpolation between order statistics (Hyndman-Fan type 7, as NumPy).
  std::optional<double> p5;
  std::optional<double> p25;
  std::optional<double> p75;
  std::optional<double> p95;
};

Stats compute_stats(std::vector<double> values);
// The q-th percentile (0..100) of sorted values; nullopt when empty.
std::optional<double> percentile(const std::vector<double>& sorted, double q);
nlohmann::json to_json(const Stats& stats);

struct MetricStats {
  std::string name;
  std::string unit;
  Stats stats;
};

// Statistics of one case across its succeeded trials (a crash's wall time is not a speed).
struct CaseStats {
  Stats wall_time;
  std::vector<MetricStats> metrics;  // in first-reported order
  int trials_succeeded = 0;
  int trials_flagged = 0;    // trials with any flag
  int trials_disturbed = 0;  // trials whose measurement was disturbed (results/flags.hpp)
  FlagCounts disturbances;   // which disturbances, on how many trials
};

CaseStats case_stats(const Case& c);

// The disturbed trials of a whole run: what its last line and its summaries count.
struct RunDisturbances {
  int trials = 0;     // non-warm-up trials that ran
  int disturbed = 0;  // of those, disturbed
  FlagCounts flags;
};
RunDisturbances run_disturbances(const Run& run);
// "20 of 30 trials disturbed (host busy 20)", empty when none was.
std::string describe(const RunDisturbances& d);
// What to do about disturbed trials, in one sentence.
inline constexpr const char* kDisturbanceAdvice =
    "compare, report and the history leave them out; for a verdict on this machine run both sides "
    "interleaved with `perfzero ab`, or measure on a quieter machine";

// The median of one metric of one case; nullopt when the case or the metric has no data.
std::optional<double> metric_median(const Run& run, const std::string& case_name, const std::string& metric);

}  // namespace perfzero::results
