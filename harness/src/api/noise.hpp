#pragma once
// The relative noise of a mean (95 % confidence half-width over the mean, Student's t), shared by
// RepetitionSeries and measure(), which keeps running sums so that its stop test stays O(1).
#include <cstddef>

namespace perfzero::detail {

// Infinity with fewer than two values or a mean of zero.
double relative_noise(std::size_t count, double mean, double stddev);

}  // namespace perfzero::detail
