#pragma once
// Change points in a series of run values (docs/history.md, "history changes"): where its mean steps.
// As Apache Otava (formerly Hunter) finds them: E-Divisive means (Matteson and James, 2014) proposes
// split points, bisecting each segment at the point that maximizes the energy-distance statistic q,
// in windows over a long series; each point is then tested with Student's t-test (pooled variance) between its
// neighbouring segments, and the weakest point is dropped and its neighbours tested again until
// every point left is significant and large enough; last, each point is placed by least squares
// between its neighbours, and tested again.
#include <cstddef>
#include <vector>

namespace perfzero::compare {

struct ChangePointSettings {
  double max_pvalue = 0.001;   // a point stays only when Student's t p between its segments is below this
  double min_magnitude = 0.0;  // and |mean after / mean before - 1| at least this
  // E-Divisive runs on windows of this many points, overlapping by half. Otava's default is 50; in
  // 200-run series with a 2 % step in noise of 1-3 %, 50 proposed too few steps (a window's halves
  // too short to show a step at the proposal's level) and 200 found as many as least squares given
  // the step's existence (benchmarks/history_changes, docs/performance.md).
  std::size_t window = 200;
  std::size_t min_segment = 2;  // the fewest points on either side of a split
};

struct ChangePoint {
  std::size_t index = 0;   // the first point after the step
  std::size_t before = 0;  // points in the segment before it (back to the previous change point)
  std::size_t after = 0;   // and after it (up to the next one)
  double mean_before = 0;
  double mean_after = 0;
  double change = 0;  // mean_after / mean_before - 1
  double ci_low = 0;  // the 95 % interval of the change (the t-test's interval of the difference / mean_before)
  double ci_high = 0;
  double p_value = 1;  // Student's two-sided p between the two segments
};

// The change points of `values` (in order), each tested against its neighbours. Non-finite values
// are the caller's to leave out. Series shorter than 2 * min_segment have none.
std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointSettings& settings);

// E-Divisive's statistic q for splitting values[first, last) at `split` (alpha = 1): the scaled
// energy distance between the two sides. Exposed for tests against a direct computation.
double energy_q(const std::vector<double>& values, std::size_t first, std::size_t split, std::size_t last);

namespace detail {
// q at every split of [first, last) as the search computes it, with running sums: element
// split - first, NaN where a side would be shorter than min_segment. Exposed for the test that holds
// it to energy_q's definition at every split.
std::vector<double> q_by_split(const std::vector<double>& values, std::size_t first, std::size_t last,
                               std::size_t min_segment);
}  // namespace detail

}  // namespace perfzero::compare
