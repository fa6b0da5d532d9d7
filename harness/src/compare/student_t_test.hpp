#pragma once
// Student's two-sample t-test with a pooled variance, as scipy.stats.ttest_ind (equal_var=True)
// computes it, and the interval of the difference of the means it implies: what a change point's
// significance and interval come from (compare/change_points.hpp), as in Apache Otava. The pooled
// variance is what keeps a short segment that happens to be quiet from looking significant: Welch's
// test would take that segment's small variance at its word.
#include <cstddef>
#include <optional>

namespace perfzero::compare {

struct SampleMoments {
  std::size_t n = 0;
  double mean = 0;
  double variance = 0;  // sample variance (n - 1)
};

SampleMoments moments(const double* first, const double* last);

struct TTestResult {
  double t = 0;
  double df = 0;
  double p_value = 1;   // two-sided
  double diff_low = 0;  // the interval of mean(b) - mean(a) at `confidence`
  double diff_high = 0;
};

// nullopt when the two sides together have fewer than 3 values or either is empty. Two sides
// without variance give p = 0 when their means differ (a certain step), 1 when they are equal.
std::optional<TTestResult> student_t_test(const SampleMoments& a, const SampleMoments& b, double confidence = 0.95);

}  // namespace perfzero::compare
