#pragma once
// The standard normal distribution, from Boost.Math, for the tests' normal approximations
// (Mann-Whitney, Wilcoxon signed rank) and the sequential boundaries. One place, so the three
// statistics agree on it.
namespace perfzero::compare {

double normal_cdf(double x);             // P(Z <= x)
double normal_upper(double x);           // P(Z > x), accurate far into the tail (not 1 - cdf)
double normal_quantile(double p);        // x with P(Z <= x) = p, 0 < p < 1
double normal_upper_quantile(double q);  // x with P(Z > x) = q, accurate for a tiny q
double normal_density(double x);

}  // namespace perfzero::compare
