// The speed cube's answer check and metrics, shared by the one-host and the cross-rank families.
#include "speedcube/speedcube_result.hpp"

#include <cmath>
#include <string>

namespace perfzero::speedcube {

namespace {
constexpr double kExpectedMean = 11.0;
}  // namespace

bool report_result(Context& ctx, const Problem& p, const Sums& sums, double seconds) {
  const double mean = sums.selected / static_cast<double>(sums.selected_count) + 1.0;
  const double all_mean = sums.all / static_cast<double>(sums.all_count);
  const double bound = mean_error_bound(p.n);
  ctx.report(Metric{"mean", mean, "1", kExpectedMean - bound, kExpectedMean + bound, Direction::unspecified});
  ctx.report("mean_error", std::fabs(mean - kExpectedMean), "1", perfzero::Direction::lower_is_better);
  ctx.report("points_per_second", static_cast<double>(p.n) * static_cast<double>(p.n) / seconds, "points/s",
             perfzero::Direction::higher_is_better);
  ctx.set_extra("threads", std::int64_t{p.threads});
  ctx.set_extra("n", p.n);
  ctx.set_extra("chunk", p.chunk);
  ctx.set_extra("mean_bound", bound);
  ctx.set_extra("all_points_mean", all_mean);
  if (sums.all_count != p.n * p.n || std::fabs(all_mean - 10.0) > 6.0 / static_cast<double>(p.n)) {
    ctx.fail("the mean of all points is " + std::to_string(all_mean) + " over " + std::to_string(sums.all_count) +
             " points; expected 10 over n*n");
    return false;
  }
  if (std::fabs(mean - kExpectedMean) > bound) {
    ctx.fail("mean " + std::to_string(mean) + " is further than " + std::to_string(bound) + " from 11");
    return false;
  }
  return true;
}

}  // namespace perfzero::speedcube
