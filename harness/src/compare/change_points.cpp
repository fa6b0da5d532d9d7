#include "compare/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "compare/student_t_test.hpp"

namespace perfzero::compare {

namespace {

// Candidates are proposed at a looser level than they must finally meet, so that a real step hidden
// by a neighbouring one inside its window is still proposed; the pruning below decides.
constexpr double kProposalLooseness = 10.0;

struct Best {
  std::size_t split = 0;
  double q = -1;
};

// The split of [first, last) with the largest q, each side at least min_segment long.
std::optional<Best> best_split(const std::vector<double>& v, std::size_t first, std::size_t last,
                               std::size_t min_segment) {
  if (last - first < 2 * min_segment) return std::nullopt;
  const auto q = detail::q_by_split(v, first, last, min_segment);
  Best best;
  for (std::size_t split = first + min_segment; split + min_segment <= last; ++split) {
    if (q[split - first] > best.q) best = {split, q[split - first]};
  }
  if (best.q < 0) return std::nullopt;
  return best;
}

double p_between(const std::vector<double>& v, std::size_t a, std::size_t split, std::size_t b) {
  const auto r = student_t_test(moments(&v[a], &v[split]), moments(&v[split], &v[b]));
  return r ? r->p_value : 1.0;
}

// Bisects [first, last) while the best split is significant at the loose level.
void propose(const std::vector<double>& v, std::size_t first, std::size_t last, const ChangePointSettings& s,
             std::set<std::size_t>& out) {
  const auto best = best_split(v, first, last, s.min_segment);
  if (!best) return;
  if (p_between(v, first, best->split, last) > s.max_pvalue * kProposalLooseness) return;
  out.insert(best->split);
  propose(v, first, best->split, s, out);
  propose(v, best->split, last, s, out);
}

ChangePoint describe(const std::vector<double>& v, std::size_t a, std::size_t split, std::size_t b) {
  ChangePoint cp;
  cp.index = split;
  cp.before = split - a;
  cp.after = b - split;
  const SampleMoments left = moments(&v[a], &v[split]);
  const SampleMoments right = moments(&v[split], &v[b]);
  cp.mean_before = left.mean;
  cp.mean_after = right.mean;
  cp.change = left.mean != 0 ? right.mean / left.mean - 1 : 0;
  if (const auto w = student_t_test(left, right)) {
    cp.p_value = w->p_value;
    if (left.mean != 0) {
      cp.ci_low = w->diff_low / std::fabs(left.mean);
      cp.ci_high = w->diff_high / std::fabs(left.mean);
    }
  }
  return cp;
}

// Drops the weakest point (the largest p-value, then the smallest change) while any fails the bar,
// testing each point against its neighbours as they are after every drop.
void prune(const std::vector<double>& values, const ChangePointSettings& s, std::vector<std::size_t>& points) {
  const std::size_t n = values.size();
  for (;;) {
    std::optional<std::size_t> weakest;
    ChangePoint weakest_cp;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::size_t a = i == 0 ? 0 : points[i - 1];
      const std::size_t b = i + 1 == points.size() ? n : points[i + 1];
      const ChangePoint cp = describe(values, a, points[i], b);
      const bool fails = cp.before < s.min_segment || cp.after < s.min_segment || cp.p_value > s.max_pvalue ||
                         std::fabs(cp.change) < s.min_magnitude;
      if (!fails) continue;
      if (!weakest || cp.p_value > weakest_cp.p_value ||
          (cp.p_value == weakest_cp.p_value && std::fabs(cp.change) < std::fabs(weakest_cp.change))) {
        weakest = i;
        weakest_cp = cp;
      }
    }
    if (!weakest) break;
    points.erase(points.begin() + static_cast<std::ptrdiff_t>(*weakest));
  }
}

// Moves each point, between its neighbours, to the split with the largest between-segment sum of
// squares m·r/(m+r)·(mean left − mean right)²: for a step in the mean, the most likely place
// (least squares). E-Divisive's energy statistic answers any change of distribution, and places a
// step in the mean less precisely: in noise of 3 % a 2 % step's place was off by more than 5 runs
// in a fifth of the series (benchmarks/history_changes, docs/performance.md).
void refine(const std::vector<double>& values, const ChangePointSettings& s, std::vector<std::size_t>& points) {
  const std::size_t n = values.size();
  std::vector<double> prefix(n + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + values[i];
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::size_t a = i == 0 ? 0 : points[i - 1];
    const std::size_t b = i + 1 == points.size() ? n : points[i + 1];
    double best = -1;
    for (std::size_t split = a + s.min_segment; split + s.min_segment <= b; ++split) {
      const auto m = static_cast<double>(split - a);
      const auto r = static_cast<double>(b - split);
      const double diff = (prefix[split] - prefix[a]) / m - (prefix[b] - prefix[split]) / r;
      const double between = m * r / (m + r) * diff * diff;
      if (between > best) {
        best = between;
        points[i] = split;
      }
    }
  }
}

}  // namespace

namespace detail {

// O(n^2) over all splits with running sums of the within-side and between-side distances, where the
// definition (energy_q) is O(n^2) per split.
std::vector<double> q_by_split(const std::vector<double>& v, std::size_t first, std::size_t last,
                               std::size_t min_segment) {
  std::vector<double> q(last - first + 1, std::numeric_limits<double>::quiet_NaN());
  if (last - first < 2) return q;
  const auto d = [&](std::size_t i, std::size_t j) { return std::fabs(v[i] - v[j]); };
  // Start at split = first + 1: left {first}, right [first + 1, last).
  double within_left = 0;
  double within_right = 0;
  double between = 0;
  for (std::size_t j = first + 1; j < last; ++j) {
    between += d(first, j);
    for (std::size_t k = j + 1; k < last; ++k) within_right += d(j, k);
  }
  for (std::size_t split = first + 1; split < last; ++split) {
    const auto m = static_cast<double>(split - first);
    const auto r = static_cast<double>(last - split);
    if (split - first >= min_segment && last - split >= min_segment) {
      const double left_pairs = m * (m - 1) / 2;
      const double right_pairs = r * (r - 1) / 2;
      const double e = 2 * between / (m * r) - (left_pairs > 0 ? within_left / left_pairs : 0) -
                       (right_pairs > 0 ? within_right / right_pairs : 0);
      q[split - first] = m * r / (m + r) * e;
    }
    if (split + 1 == last) break;
    // Move point `split` from the right side to the left.
    double to_left = 0;
    for (std::size_t i = first; i < split; ++i) to_left += d(i, split);
    double to_right = 0;
    for (std::size_t k = split + 1; k < last; ++k) to_right += d(split, k);
    within_left += to_left;
    within_right -= to_right;
    between += to_right - to_left;
  }
  return q;
}

}  // namespace detail

double energy_q(const std::vector<double>& v, std::size_t first, std::size_t split, std::size_t last) {
  const auto m = static_cast<double>(split - first);
  const auto r = static_cast<double>(last - split);
  double between = 0;
  double left = 0;
  double right = 0;
  for (std::size_t i = first; i < split; ++i) {
    for (std::size_t j = split; j < last; ++j) between += std::fabs(v[i] - v[j]);
    for (std::size_t k = i + 1; k < split; ++k) left += std::fabs(v[i] - v[k]);
  }
  for (std::size_t j = split; j < last; ++j) {
    for (std::size_t k = j + 1; k < last; ++k) right += std::fabs(v[j] - v[k]);
  }
  const double e =
      2 * between / (m * r) - (m > 1 ? left / (m * (m - 1) / 2) : 0) - (r > 1 ? right / (r * (r - 1) / 2) : 0);
  return m * r / (m + r) * e;
}

std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointSettings& settings) {
  ChangePointSettings s = settings;
  s.min_segment = std::max<std::size_t>(2, s.min_segment);
  s.window = std::max(s.window, 4 * s.min_segment);
  const std::size_t n = values.size();
  std::set<std::size_t> proposed;
  if (n <= s.window) {
    propose(values, 0, n, s, proposed);
  } else {
    // Overlapping windows: a step near one window's edge lies well inside the next.
    const std::size_t step = s.window / 2;
    for (std::size_t first = 0; first < n; first += step) {
      const std::size_t last = std::min(n, first + s.window);
      propose(values, first, last, s, proposed);
      if (last == n) break;
    }
  }
  std::vector<std::size_t> points(proposed.begin(), proposed.end());
  prune(values, s, points);
  // Then place each point where it best separates two means, and test them all again.
  refine(values, s, points);
  prune(values, s, points);
  std::vector<ChangePoint> out;
  out.reserve(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    out.push_back(describe(values, i == 0 ? 0 : points[i - 1], points[i], i + 1 == points.size() ? n : points[i + 1]));
  }
  return out;
}

}  // namespace perfzero::compare
