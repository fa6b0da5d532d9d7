// The history site's pictures (history_site/site_svg.cpp): what they draw, and values a worker may
// legally report that would break the scale (1e308, a span that overflows).
#include "history_site/site_svg.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "fleet_report/svg_axis.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::history_site::history_site_svg_test {
namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

ChartRun run(double median, std::vector<double> trials, std::vector<double> disturbed = {}) {
  ChartRun r;
  r.median = median;
  r.trials = std::move(trials);
  r.disturbed = std::move(disturbed);
  r.date = "2026-11-26";
  return r;
}

TEST(HistorySiteSvg, EveryTrialIsADotTheMediansALineAndChangesAreMarked) {
  const std::string svg =
      series_chart({run(10, {9.9, 10, 10.1}), run(12, {11.9, 12.1}, {15})}, {{1, "c8 +20.0 %"}}, "ms");
  EXPECT_EQ(count(svg, "<circle class='t'"), 5U);
  EXPECT_EQ(count(svg, "<circle class='td'"), 1U);
  EXPECT_EQ(count(svg, "<polyline class='median'"), 1U);
  EXPECT_EQ(count(svg, "<line class='cp'"), 1U);
  EXPECT_NE(svg.find(">c8 +20.0 %<"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  // Attributes are quoted: an unquoted value before "/>" would take the slash in.
  EXPECT_EQ(svg.find("/'/>"), std::string::npos);
  EXPECT_EQ(count(sparkline({1, 2, 3}, {1}), "<line class='cp'"), 1U);
}

TEST(HistorySiteSvg, ValuesNearTheDoublesLimitAreSaidNotDrawnAndNeverHang) {
  const double huge = std::numeric_limits<double>::max();
  EXPECT_NE(series_chart({run(1e308, {1e308, 1.7e308})}, {}, "ms").find("too large to draw"), std::string::npos);
  EXPECT_NE(series_chart({run(-1e308, {-1e308}), run(1e308, {1e308})}, {}, "ms").find("too large to draw"),
            std::string::npos);
  EXPECT_NE(sparkline({-huge, huge}, {}).find("too large to draw"), std::string::npos);
  // The axis itself stops: a bounded number of finite ticks, whatever the span.
  for (const auto& [low, high] : std::vector<std::pair<double, double>>{{1e308, 1.7e308}, {-huge, huge}, {0, 1e-300}}) {
    const auto axis = fleet_report::svg::nice_axis(low, high);
    EXPECT_LE(axis.ticks.size(), 1000U) << low << " " << high;
    for (double t : axis.ticks) EXPECT_TRUE(std::isfinite(t)) << low << " " << high;
  }
}

}  // namespace
}  // namespace perfzero::history_site::history_site_svg_test
