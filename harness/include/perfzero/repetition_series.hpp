#pragma once
// The time of every timed repetition of one measured piece of work, and why the loop stopped.
// perfzero::measure() fills one; a method that times parts of a repetition itself (STREAM's kernels,
// the speed cube's two passes) may record its own with Context::record_repetitions.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perfzero {

enum class StopReason {
  min_repetitions_and_time,  // both minimums met, no noise target asked for
  noise_target,              // the mean's relative 95 % confidence half-width fell under the target
  time_cap,                  // max_time passed (this may cut repetitions below the minimum)
  max_repetitions,           // the repetition cap was reached
};

std::string_view to_string(StopReason reason);

struct RepetitionSeries {
  std::string name{};
  std::string unit = "s";
  std::vector<double> values{};  // one per timed repetition, in the order they ran
  std::int64_t warmups = 0;      // untimed repetitions run before the first value
  StopReason stopped_by = StopReason::min_repetitions_and_time;

  std::size_t size() const { return values.size(); }
  // The statistics below need at least one value (std::logic_error otherwise).
  double median() const;  // the mean of the two middle values when the count is even
  double mean() const;
  double min() const;
  double max() const;
  double stddev() const;  // sample standard deviation; 0 for one value
  // Half-width of the mean's 95 % confidence interval (Student's t) over the mean; infinity with
  // fewer than two values or a mean of zero.
  double relative_noise() const;
};

}  // namespace perfzero
