// The pieces of the history site's index (history_site/main_metric.cpp, site_overview_svg.cpp): which
// metric a method is plotted by, and the plot of its configurations with their change points.
#include <gtest/gtest.h>

#include <limits>

#include "history_site/main_metric.hpp"
#include "history_site/site_overview_svg.hpp"

namespace perfzero::history_site::history_site_dashboard_test {
namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

history::Series series(std::string metric, std::string unit, Direction d = Direction::unspecified) {
  history::Series s;
  s.metric = std::move(metric);
  s.unit = std::move(unit);
  s.direction = d;
  return s;
}

MainMetric chosen(const std::vector<history::Series>& all) {
  std::vector<const history::Series*> pointers;
  for (const auto& s : all) pointers.push_back(&s);
  return main_metric(pointers);
}

TEST(HistorySiteMainMetric, ARateFirstThenADirectionThenWallTime) {
  const auto rate = chosen({series("a_latency", "ms", Direction::lower_is_better), series("items", "items/s"),
                            series("wall_time", "s", Direction::lower_is_better)});
  EXPECT_EQ(rate.metric, "items");
  EXPECT_NE(rate.why.find("first rate"), std::string::npos) << rate.why;
  // A counter's direction or a bare "/s" unit is no main metric.
  const auto direction = chosen({series("context_switches", "switches", Direction::lower_is_better),
                                 series("odd", "/s"), series("latency", "ms", Direction::lower_is_better),
                                 series("wall_time", "s", Direction::lower_is_better)});
  EXPECT_EQ(direction.metric, "latency");
  EXPECT_NE(direction.why.find("direction"), std::string::npos) << direction.why;
  const auto wall = chosen({series("task_clock", "s", Direction::lower_is_better), series("queue", ""),
                            series("wall_time", "s", Direction::lower_is_better)});
  EXPECT_EQ(wall.metric, "wall_time");
  EXPECT_EQ(chosen({series("task_clock", "s", Direction::lower_is_better), series("queue", "")}).metric, "queue");
  EXPECT_EQ(chosen({series("task_clock", "s", Direction::lower_is_better)}).metric, "task_clock");
  EXPECT_TRUE(chosen({}).metric.empty());
}

TEST(HistorySiteOverview, EachConfigurationALineEachChangeMarkedWithItsCommit) {
  OverviewLine a;
  OverviewLine b;
  for (int i = 0; i < 10; ++i) {
    a.points.emplace_back(1.76e9 + 86400.0 * i, i < 5 ? 10.0 : 12.0);
    b.points.emplace_back(1.76e9 + 86400.0 * i + 3600, 8.0);
  }
  a.changes = {{5, "abc1234 +20.0 %"}, {99, "beyond the points"}};
  const std::string svg = overview_chart({a, b}, "ms");
  EXPECT_EQ(count(svg, "<polyline class='ml'"), 2U);
  EXPECT_EQ(count(svg, "<g class='cpm'>"), 1U) << "a change past the points is not drawn";
  EXPECT_NE(svg.find("<title>abc1234 +20.0 %</title>"), std::string::npos);
  EXPECT_NE(svg.find(">2025-"), std::string::npos) << "dates on the time axis";
  EXPECT_NE(line_style(0), line_style(1));
  EXPECT_NE(line_style(0), line_style(8)) << "past the colours, a dash tells lines apart";
  // A label that holds markup is escaped.
  a.changes = {{5, "<b>"}};
  EXPECT_EQ(overview_chart({a}, "ms").find("<b>"), std::string::npos);
}

TEST(HistorySiteOverview, OneRunValuesTooLargeAndNoPointsDrawWithoutNaN) {
  OverviewLine one;
  one.points = {{1.76e9, 5.0}};
  const std::string single = overview_chart({one}, "ms");
  EXPECT_EQ(count(single, "<circle"), 1U) << "a line of one run still shows";
  EXPECT_EQ(single.find("nan"), std::string::npos) << single;
  OverviewLine huge;
  huge.points = {{1.76e9, -std::numeric_limits<double>::max()}, {1.76e9 + 1, std::numeric_limits<double>::max()}};
  EXPECT_NE(overview_chart({huge}, "").find("too large"), std::string::npos);
  EXPECT_NE(overview_chart({}, "").find("No points"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::history_site::history_site_dashboard_test
