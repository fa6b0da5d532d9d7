// Cost against time, one numbered marker per configuration (the legend beside it names them, so
// names never collide), ticks at round numbers on both axes, and the Pareto front (the
// configurations no other beats on both time and cost) as the step line that bounds what they
// dominate.
#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "fleet_report/html_parts.hpp"
#include "fleet_report/html_text.hpp"
#include "fleet_report/report_writers.hpp"
#include "fleet_report/svg_axis.hpp"

namespace perfzero::fleet_report::svg {

namespace {

using html::escape;

struct Point {
  double time;  // seconds for the unit of work (scaled) or for one run
  double cost;  // USD for the same (times cost_scale for runs)
  std::string label;
  bool front = false;
  int number = 0;  // 1-based, in the legend's order (fastest first)
};

struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// `cost_scale`: runs cost fractions of a cent, quoted per as many runs as the tables quote.
std::vector<Point> points_of(const MethodRow& row, const std::vector<Configuration>& configs, double cost_scale) {
  std::vector<Point> points;
  for (std::size_t j = 0; j < configs.size(); ++j) {
    const Cell& cell = row.cells[j];
    if (!cell.ok()) continue;
    if (row.metric && cell.metric.median && *cell.metric.median > 0 && cell.cost_per_unit) {
      points.push_back({row.metric->scale / *cell.metric.median, *cell.cost_per_unit, configs[j].key});
    } else if (!row.metric && cell.wall.median && cell.cost_per_run) {
      points.push_back({*cell.wall.median, *cell.cost_per_run * cost_scale, configs[j].key});
    }
  }
  // Sorted by time, a point is on the front when it is cheaper than every faster point.
  std::sort(points.begin(), points.end(),
            [](const Point& a, const Point& b) { return a.time != b.time ? a.time < b.time : a.cost < b.cost; });
  double cheapest = INFINITY;
  for (std::size_t i = 0; i < points.size(); ++i) {
    points[i].front = points[i].cost < cheapest;
    cheapest = std::min(cheapest, points[i].cost);
    points[i].number = static_cast<int>(i) + 1;
  }
  return points;
}

// The data's range, padded so no marker sits on a frame, never below 0.
Axis padded_axis(double low, double high) {
  const double span = std::max(high - low, std::fabs(high) * 0.05);
  return nice_axis(std::max(0.0, low - span * 0.12), high + span * 0.12, 5);
}

// "a trillion points", "1,000 images", "1 TFLOP", "one run": how much the axes are for.
std::string amount(const std::string& per) {
  if (per == "run") return "one run";
  if (!per.empty() && std::isdigit(static_cast<unsigned char>(per[0])) != 0) return per;
  if (per.find(' ') == std::string::npos) return "1 " + per;
  return "a " + per;
}

// The chart's size and margins, in pixels; the right margin depends on the last tick's label.
constexpr int kScatterWidth = 500;
constexpr int kScatterHeight = 320;
constexpr int kScatterLeft = 70;
constexpr int kScatterTop = 14;
constexpr int kScatterBottom = 48;

// Both axes, fitted to the points, and where a time and a cost fall on the chart.
struct ScatterFrame {
  TimeUnit unit;
  Axis xa, ya;
  std::vector<std::string> x_labels;
  int right = 16;
  double px(double t) const {
    return kScatterLeft + (t / unit.seconds - xa.low) / (xa.high - xa.low) * (kScatterWidth - kScatterLeft - right);
  }
  double py(double c) const {
    return kScatterHeight - kScatterBottom -
           (c - ya.low) / (ya.high - ya.low) * (kScatterHeight - kScatterBottom - kScatterTop);
  }
};

ScatterFrame scatter_frame(const std::vector<Point>& points) {
  double min_t = INFINITY, max_t = 0, min_c = INFINITY, max_c = 0;
  for (const auto& p : points) {
    min_t = std::min(min_t, p.time);
    max_t = std::max(max_t, p.time);
    min_c = std::min(min_c, p.cost);
    max_c = std::max(max_c, p.cost);
  }
  ScatterFrame f;
  f.unit = time_unit(max_t);
  f.xa = padded_axis(min_t / f.unit.seconds, max_t / f.unit.seconds);
  f.x_labels = si_ticks(f.xa.ticks, f.unit.name == "s" ? "s" : "");
  // The last tick's label is centred on the plot's right edge: room for its half.
  f.right = std::max(16, static_cast<int>(std::ceil(text_width(f.x_labels.back(), 11) / 2)) + 4);
  f.ya = padded_axis(min_c, max_c);
  return f;
}

// Both grids with their tick labels, the axes, and what each axis measures.
std::string scatter_axes(const ScatterFrame& f, const std::string& time_for, const std::string& cost_for) {
  const int w = kScatterWidth;
  const int h = kScatterHeight;
  const int left = kScatterLeft;
  const int top = kScatterTop;
  const int bottom = kScatterBottom;
  std::string out;
  for (std::size_t i = 0; i < f.xa.ticks.size(); ++i) {
    const double x = left + (f.xa.ticks[i] - f.xa.low) / (f.xa.high - f.xa.low) * (w - left - f.right);
    out += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" class="grid"/>)"
                       R"(<text x="{0:.1f}" y="{3}" text-anchor="middle" class="tick">{4}</text>)",
                       x, top, h - bottom + 4, h - bottom + 17, escape(f.x_labels[i]));
  }
  for (const double c : f.ya.ticks) {
    out += fmt::format(R"(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" class="grid"/>)"
                       R"(<text x="{3}" y="{4:.1f}" text-anchor="end" class="tick">{5}</text>)",
                       left - 4, w - f.right, f.py(c), left - 7, f.py(c) + 4, escape(money(c)));
  }
  out += fmt::format(
      R"svg(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" class="axis"/><line x1="{0}" y1="{3}" x2="{0}" y2="{1}" )svg"
      R"svg(class="axis"/><text x="{4}" y="{5}" text-anchor="middle" class="axis-label">time for {6}{7} )svg"
      R"svg((left is faster)</text><text x="14" y="{8}" transform="rotate(-90 14 {8})" text-anchor="middle" )svg"
      R"svg(class="axis-label">USD for {9} (down is cheaper)</text>)svg",
      left, h - bottom, w - f.right, top, (left + w - f.right) / 2, h - 10, escape(time_for),
      f.unit.name == "s" ? "" : " (" + f.unit.name + ")", (h - bottom + top) / 2, escape(cost_for));
  return out;
}

// The front's step line: down from the top to its fastest point, then across and down through
// every next one, then across to the right edge: everything up and to the right is dominated.
std::string pareto_path(const ScatterFrame& f, const std::vector<Point>& points) {
  std::string path;
  for (const auto& p : points) {
    if (!p.front) continue;
    if (path.empty()) {
      path = fmt::format("M{:.1f},{} V{:.1f}", f.px(p.time), kScatterTop, f.py(p.cost));
    } else {
      path += fmt::format(" H{:.1f} V{:.1f}", f.px(p.time), f.py(p.cost));
    }
  }
  return fmt::format(R"(<path d="{} H{}" class="front"><title>Pareto front</title></path>)", path,
                     kScatterWidth - f.right);
}

// Where a number (bw by bh) goes beside its marker at (x, y): the first place, nearest first, inside
// the plot that overlaps nothing `taken`; else just right of the marker. `leader`: it lies far enough
// away to need a line to its marker.
Box number_box(const ScatterFrame& f, double x, double y, double bw, double bh, const std::vector<Box>& taken,
               bool& leader) {
  Box chosen{x + 7, y - bh / 2, x + 7 + bw, y + bh / 2};
  leader = false;
  for (const double reach : {7.0, 16.0, 28.0}) {
    for (const auto& [dx, dy] :
         std::vector<std::pair<double, double>>{{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {-1, -1}, {1, 1}, {-1, 1}}) {
      const double cx = x + dx * (reach + bw / 2);
      const double cy = y + dy * (reach + bh / 2);
      const Box b{cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2};
      const bool inside = b.x0 >= kScatterLeft && b.x1 <= kScatterWidth - f.right && b.y0 >= kScatterTop &&
                          b.y1 <= kScatterHeight - kScatterBottom;
      if (inside && std::none_of(taken.begin(), taken.end(), [&](const Box& t) { return t.overlaps(b); })) {
        leader = reach > 7;
        return b;
      }
    }
  }
  return chosen;
}

// Each point's marker and number, the number put where it overlaps no other number and no marker.
std::string point_markers(const ScatterFrame& f, const std::vector<Point>& points, const std::string& time_for,
                          const std::string& cost_for) {
  std::string out;
  std::vector<Box> taken;
  taken.reserve(points.size() * 2);
  for (const auto& p : points) {
    taken.push_back({f.px(p.time) - 5, f.py(p.cost) - 5, f.px(p.time) + 5, f.py(p.cost) + 5});
  }
  for (const auto& p : points) {
    const double x = f.px(p.time);
    const double y = f.py(p.cost);
    const std::string number = std::to_string(p.number);
    const double bw = text_width(number, 11) + 6;
    const double bh = 14;
    bool leader = false;
    const Box chosen = number_box(f, x, y, bw, bh, taken, leader);
    taken.push_back(chosen);
    const double cx = (chosen.x0 + chosen.x1) / 2;
    const double cy = (chosen.y0 + chosen.y1) / 2;
    out +=
        fmt::format(R"(<g class="point{}"><title>{}. {}: {} for {}, {} for {}{}</title>)", p.front ? " on-front" : "",
                    p.number, escape(p.label), escape(duration_text(p.time)), escape(time_for), escape(money(p.cost)),
                    escape(cost_for), p.front ? " (on the Pareto front)" : "");
    if (leader)
      out += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" class="leader"/>)", x, y, cx, cy);
    out += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="4.5"/><rect x="{:.1f}" y="{:.1f}" width="{:.1f}" )"
                       R"(height="{:.1f}" rx="3" class="num"/><text x="{:.1f}" y="{:.1f}" text-anchor="middle" )"
                       R"(class="num">{}</text></g>)",
                       x, y, chosen.x0, chosen.y0, bw, bh, cx, cy + 4, p.number);
  }
  return out;
}

// The legend under the chart: each number's configuration, time and cost.
std::string scatter_legend(const std::vector<Point>& points, const std::string& time_for, const std::string& cost_for) {
  std::string out = "<table class=legend><thead><tr><th>#</th><th class=name>configuration</th><th>time for " +
                    escape(time_for) + "</th><th>USD for " + escape(cost_for) + "</th></tr></thead><tbody>";
  for (const auto& p : points) {
    out += fmt::format("<tr{}><td>{}</td><td class=name>{}{}</td><td>{}</td><td>{}</td></tr>",
                       p.front ? " class=on-front" : "", p.number, html::breakable(p.label),
                       p.front ? " <span class=\"tag front-tag\">Pareto front</span>" : "",
                       escape(duration_text(p.time)), escape(money(p.cost)));
  }
  return out + "</tbody></table>";
}

}  // namespace

std::string cost_time_scatter(const MethodRow& row, const FleetReport& report) {
  const auto points = points_of(row, report.configurations, row.metric ? 1.0 : row.run_scale);
  if (points.empty()) return "";
  // For a rate, time and cost of the same amount of work; without one, of one run and of as many
  // runs as the tables quote.
  const std::string time_for = row.metric ? amount(row.metric->per) : "one run";
  const std::string cost_for = row.metric ? amount(row.metric->per) : amount(row.runs_per);
  const ScatterFrame f = scatter_frame(points);
  std::string out = fmt::format(
      R"(<figure class="scatter-figure"><svg class="scatter" xmlns="http://www.w3.org/2000/svg" width="{0}" )"
      R"(height="{1}" viewBox="0 0 {0} {1}" role="img" aria-label="cost against time">)",
      kScatterWidth, kScatterHeight);
  out += scatter_axes(f, time_for, cost_for);
  out += pareto_path(f, points);
  out += point_markers(f, points, time_for, cost_for);
  out += "</svg>" + scatter_legend(points, time_for, cost_for);
  return out + "</figure>";
}

}  // namespace perfzero::fleet_report::svg
