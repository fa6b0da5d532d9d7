// The shared bootstrap of two medians: bit for bit what `perfzero compare` computed before it was
// shared (the copy-and-nth_element implementation is kept here as the reference), and the ratio
// `perfzero report` ranks configurations by.
#include "results/bootstrap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "compare/significance.hpp"
#include "results/statistics.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::results::bootstrap_test {
namespace {

// compare/significance.cpp's bootstrap as it was before it moved here, verbatim but for names.
double reference_median(std::vector<double>& v) {
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2.0;
}

std::optional<BootstrapInterval> reference_change(const std::vector<double>& baseline,
                                                  const std::vector<double>& candidate, int resamples,
                                                  std::uint64_t seed) {
  if (baseline.empty() || candidate.empty() || resamples < 1) return std::nullopt;
  std::mt19937_64 rng(seed);
  std::vector<double> changes;
  std::vector<double> base(baseline.size());
  std::vector<double> cand(candidate.size());
  for (int i = 0; i < resamples; ++i) {
    for (double& v : base) v = baseline[rng() % baseline.size()];
    for (double& v : cand) v = candidate[rng() % candidate.size()];
    const double base_median = reference_median(base);
    if (base_median == 0) return std::nullopt;
    changes.push_back(reference_median(cand) / base_median - 1.0);
  }
  std::sort(changes.begin(), changes.end());
  const double tail = (1.0 - 0.95) / 2.0 * 100.0;  // 2.500000000000002, as compare computed it
  return BootstrapInterval{*percentile(changes, tail), *percentile(changes, 100.0 - tail)};
}

TEST(Bootstrap, CompareGetsBitForBitTheIntervalsItGotBeforeTheMove) {
  std::mt19937_64 data(7);
  std::normal_distribution<double> noise(100, 8);
  // Odd and even sizes, one value, repeated values (ties), sizes that differ between the sides.
  for (const auto& [nb, nc] : std::vector<std::pair<std::size_t, std::size_t>>{
           {1, 1}, {2, 3}, {3, 3}, {4, 4}, {5, 8}, {10, 10}, {11, 30}, {64, 63}}) {
    for (const bool ties : {false, true}) {
      std::vector<double> base(nb);
      std::vector<double> cand(nc);
      for (double& v : base) v = ties ? std::round(noise(data) / 10) : noise(data);
      for (double& v : cand) v = ties ? std::round(noise(data) / 10) : noise(data) * 1.05;
      for (const std::uint64_t seed : {1ULL, 42ULL}) {
        const auto expected = reference_change(base, cand, 500, seed);
        const auto got = compare::bootstrap_median_change(base, cand, 500, seed);
        ASSERT_EQ(expected.has_value(), got.has_value()) << nb << " " << nc;
        if (!expected) continue;
        EXPECT_EQ(got->low, expected->low) << nb << " vs " << nc << (ties ? " with ties" : "");
        EXPECT_EQ(got->high, expected->high) << nb << " vs " << nc << (ties ? " with ties" : "");
      }
    }
  }
}

TEST(Bootstrap, RatioOfMediansHoldsTheTrueRatioAndIsSeeded) {
  const std::vector<double> base{100, 101, 99, 102, 98, 100, 101, 99, 100, 103};
  const std::vector<double> cand{139, 140, 138, 141, 137, 139, 140, 138, 139, 142};
  const auto a = bootstrap_medians(base, cand, 2000, 1, 0.95, median_ratio);
  const auto b = bootstrap_medians(base, cand, 2000, 1, 0.95, median_ratio);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->low, b->low);
  EXPECT_EQ(a->high, b->high);
  EXPECT_LT(a->low, 1.39);
  EXPECT_GT(a->high, 1.39);
  EXPECT_GT(a->low, 1.3);
  // Constant samples give the exact ratio; a zero baseline median, an empty side or NaN give none.
  const auto exact = bootstrap_medians({2, 2, 2}, {3, 3, 3}, 100, 1, 0.95, median_ratio);
  ASSERT_TRUE(exact);
  EXPECT_DOUBLE_EQ(exact->low, 1.5);
  EXPECT_DOUBLE_EQ(exact->high, 1.5);
  EXPECT_FALSE(bootstrap_medians({0, 0}, {1, 1}, 100, 1, 0.95, median_ratio));
  EXPECT_FALSE(bootstrap_medians({}, {1, 1}, 100, 1, 0.95, median_ratio));
  EXPECT_FALSE(bootstrap_medians({1, NAN}, {1, 1}, 100, 1, 0.95, median_ratio));
}

}  // namespace
}  // namespace perfzero::results::bootstrap_test
