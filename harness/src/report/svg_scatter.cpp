// Cost against time, one point per configuration, with the Pareto front: the configurations no
// other beats on both time and cost.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/html_text.hpp"
#include "report/report_writers.hpp"
#include "report/svg_charts.hpp"

namespace perfzero::report::svg {

namespace {

struct Point {
  double time;  // seconds for the unit of work (scaled) or for one run
  double cost;  // USD for the same
  std::string label;
  bool front = false;
};

std::vector<Point> points_of(const MethodRow& row, const std::vector<Configuration>& configs) {
  std::vector<Point> points;
  for (std::size_t j = 0; j < configs.size(); ++j) {
    const Cell& cell = row.cells[j];
    if (!cell.ok()) continue;
    if (row.metric && cell.metric.median && *cell.metric.median > 0 && cell.cost_per_unit) {
      points.push_back({row.metric->scale / *cell.metric.median, *cell.cost_per_unit, configs[j].key});
    } else if (!row.metric && cell.wall.median && cell.cost_per_run) {
      points.push_back({*cell.wall.median, *cell.cost_per_run, configs[j].key});
    }
  }
  // Sorted by time, a point is on the front when it is cheaper than every faster point.
  std::sort(points.begin(), points.end(),
            [](const Point& a, const Point& b) { return a.time != b.time ? a.time < b.time : a.cost < b.cost; });
  double cheapest = INFINITY;
  for (auto& p : points) {
    p.front = p.cost < cheapest;
    cheapest = std::min(cheapest, p.cost);
  }
  return points;
}

}  // namespace

std::string cost_time_scatter(const MethodRow& row, const std::vector<Configuration>& configs) {
  const auto points = points_of(row, configs);
  if (points.empty()) return "";
  const int w = 560;
  const int h = 300;
  const int left = 70;
  const int bottom = 40;
  double max_t = 0;
  double max_c = 0;
  for (const auto& p : points) {
    max_t = std::max(max_t, p.time);
    max_c = std::max(max_c, p.cost);
  }
  max_t = max_t > 0 ? max_t * 1.1 : 1;
  max_c = max_c > 0 ? max_c * 1.1 : 1;
  const auto px = [&](double t) { return left + static_cast<int>(std::lround(t / max_t * (w - left - 140))); };
  const auto py = [&](double c) { return h - bottom - static_cast<int>(std::lround(c / max_c * (h - bottom - 20))); };
  const std::string what = row.metric ? row.metric->per : "one run";
  std::string out =
      fmt::format(R"(<svg class="scatter" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" role="img" )"
                  R"(aria-label="cost against time"><line x1="{}" y1="{}" x2="{}" y2="{}" class="axis"/>)"
                  R"(<line x1="{}" y1="20" x2="{}" y2="{}" class="axis"/>)"
                  R"svg(<text x="{}" y="{}" text-anchor="middle" class="axis-label">time for {} (s; max {})</text>)svg"
                  R"svg(<text x="14" y="{}" transform="rotate(-90 14 {})" text-anchor="middle" class="axis-label">)svg"
                  R"svg(USD for {} (max {})</text>)svg",
                  w, h, left, h - bottom, w - 130, h - bottom, left, left, h - bottom, (left + w - 130) / 2, h - 8,
                  html::escape(what), html::escape(number(max_t / 1.1)), (h - bottom) / 2, (h - bottom) / 2,
                  html::escape(what), html::escape(money(max_c / 1.1)));
  std::string front_path;
  for (const auto& p : points) {
    if (p.front) front_path += fmt::format("{}{},{}", front_path.empty() ? "M" : " L", px(p.time), py(p.cost));
  }
  if (!front_path.empty()) out += fmt::format(R"(<path d="{}" class="front"/>)", front_path);
  for (const auto& p : points) {
    out += fmt::format(R"(<g class="point{}"><title>{}: {} s, {}{}</title><circle cx="{}" cy="{}" r="5"/>)"
                       R"(<text x="{}" y="{}">{}</text></g>)",
                       p.front ? " on-front" : "", html::escape(p.label), html::escape(number(p.time)),
                       html::escape(money(p.cost)), p.front ? " (Pareto front)" : "", px(p.time), py(p.cost),
                       px(p.time) + 8, py(p.cost) + 4, html::escape(p.label));
  }
  return out + "</svg>";
}

}  // namespace perfzero::report::svg
