#include "compare/normal_distribution.hpp"

#include <cmath>
#include <numbers>

#include <boost/math/distributions/normal.hpp>

namespace perfzero::compare {

double normal_cdf(double x) { return boost::math::cdf(boost::math::normal{}, x); }

double normal_upper(double x) { return boost::math::cdf(boost::math::complement(boost::math::normal{}, x)); }

double normal_quantile(double p) { return boost::math::quantile(boost::math::normal{}, p); }

double normal_upper_quantile(double q) {
  return boost::math::quantile(boost::math::complement(boost::math::normal{}, q));
}

double normal_density(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi); }

}  // namespace perfzero::compare
