#include "history_site/site_svg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "fleet_report/figure_text.hpp"
#include "fleet_report/html_text.hpp"
#include "fleet_report/svg_axis.hpp"

namespace perfzero::history_site {

namespace {

using fleet_report::html::escape;

struct Range {
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  void add(double v) {
    low = std::min(low, v);
    high = std::max(high, v);
  }
  bool empty() const { return low > high; }
};

}  // namespace

std::string sparkline(const std::vector<double>& values, const std::vector<std::size_t>& change_positions) {
  constexpr double kWidth = 120;
  constexpr double kHeight = 24;
  if (values.empty()) return "";
  Range r;
  for (double v : values) r.add(v);
  if (!std::isfinite(r.high - r.low)) return "<span class=meta>values too large to draw</span>";
  const double span = r.high > r.low ? r.high - r.low : 1;
  const double step = values.size() > 1 ? kWidth / static_cast<double>(values.size() - 1) : 0;
  const auto x = [&](std::size_t i) { return static_cast<double>(i) * step; };
  const auto y = [&](double v) { return kHeight - 2 - (v - r.low) / span * (kHeight - 4); };
  std::string points;
  for (std::size_t i = 0; i < values.size(); ++i) points += fmt::format("{:.1f},{:.1f} ", x(i), y(values[i]));
  std::string out = fmt::format(
      "<svg class='spark' width='{0}' height='{1}' viewBox='0 0 {0} {1}' role='img' aria-label='trend of the last {2} "
      "runs'>",
      kWidth, kHeight, values.size());
  for (std::size_t p : change_positions) {
    if (p < values.size())
      out += fmt::format("<line class='cp' x1='{0:.1f}' x2='{0:.1f}' y1='0' y2='{1}'/>", x(p), kHeight);
  }
  out += fmt::format("<polyline points='{}'/></svg>", points);
  return out;
}

namespace {

// The series chart's size and margins, in SVG pixels.
constexpr double kChartWidth = 960;
constexpr double kChartHeight = 320;
constexpr double kChartLeft = 80;
constexpr double kChartRight = 16;
constexpr double kChartTop = 28;
constexpr double kChartBottom = 36;

// Where a run's slot (one per run, left to right) and a value (on the axis) fall in the chart.
struct ChartFrame {
  fleet_report::svg::Axis axis;
  double slot = 0;  // one run's width
  double plot_h = kChartHeight - kChartTop - kChartBottom;
  double x(std::size_t i) const { return kChartLeft + (static_cast<double>(i) + 0.5) * slot; }
  double y(double v) const { return kChartTop + plot_h - (v - axis.low) / (axis.high - axis.low) * plot_h; }
};

Range range_of_runs(const std::vector<ChartRun>& runs) {
  Range r;
  for (const auto& run : runs) {
    r.add(run.median);
    for (double v : run.trials) r.add(v);
    for (double v : run.disturbed) r.add(v);
  }
  return r;
}

std::string value_grid(const ChartFrame& frame, const std::string& unit) {
  std::string out;
  const auto labels = fleet_report::si_ticks(frame.axis.ticks, unit);
  for (std::size_t i = 0; i < frame.axis.ticks.size(); ++i) {
    const double ty = frame.y(frame.axis.ticks[i]);
    out += fmt::format(
        "<line class='grid' x1='{}' x2='{}' y1='{:.1f}' y2='{:.1f}'/><text class='tick' x='{}' y='{:.1f}'>{}</text>",
        kChartLeft, kChartWidth - kChartRight, ty, ty, kChartLeft - 6, ty + 4,
        escape(i < labels.size() ? labels[i] : ""));
  }
  return out;
}

// A labelled line at the left edge of each change point's run.
std::string change_lines(const ChartFrame& frame, std::size_t run_count,
                         const std::vector<std::pair<std::size_t, std::string>>& changes) {
  std::string out;
  for (const auto& [position, label] : changes) {
    if (position >= run_count) continue;
    const double cx = frame.x(position) - frame.slot / 2;
    out += fmt::format(
        "<line class='cp' x1='{0:.1f}' x2='{0:.1f}' y1='{1}' y2='{2}'/><text class='cpl' x='{3:.1f}' "
        "y='{4}'>{5}</text>",
        cx, kChartTop - 4, kChartTop + frame.plot_h, cx + 3, kChartTop - 8, escape(label));
  }
  return out;
}

// Every trial as a dot in its run's slot: kept ones, then disturbed ones in their own class.
std::string trial_dots(const ChartFrame& frame, const std::vector<ChartRun>& runs) {
  std::string out;
  const double radius = std::clamp(frame.slot / 3, 1.0, 3.0);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& run = runs[i];
    for (double v : run.trials)
      out += fmt::format("<circle class='t' cx='{:.1f}' cy='{:.1f}' r='{:.1f}'/>", frame.x(i), frame.y(v), radius);
    for (double v : run.disturbed) {
      out += fmt::format("<circle class='td' cx='{:.1f}' cy='{:.1f}' r='{:.1f}'/>", frame.x(i), frame.y(v), radius);
    }
  }
  return out;
}

}  // namespace

std::string series_chart(const std::vector<ChartRun>& runs,
                         const std::vector<std::pair<std::size_t, std::string>>& changes, const std::string& unit) {
  Range r = range_of_runs(runs);
  if (r.empty()) return "<p>No points to draw.</p>";
  // Values near the double's limit (a worker may report 1e308) leave no finite span to scale.
  if (!std::isfinite(r.high - r.low) || !std::isfinite(std::fabs(r.low) + std::fabs(r.high))) {
    return "<p>The values are too large to draw.</p>";
  }
  if (r.high == r.low) {
    r.low -= 0.5 * (r.low == 0 ? 1 : std::abs(r.low) * 0.01);
    r.high += 0.5 * (r.high == 0 ? 1 : std::abs(r.high) * 0.01);
  }
  ChartFrame frame;
  frame.axis = fleet_report::svg::nice_axis(r.low, r.high, 5);
  frame.slot = (kChartWidth - kChartLeft - kChartRight) / static_cast<double>(runs.size());
  std::string out = fmt::format(
      "<svg class='chart' width='{0}' height='{1}' viewBox='0 0 {0} {1}' role='img' aria-label='every trial of the "
      "last {2} "
      "runs, their medians and change points'>",
      kChartWidth, kChartHeight, runs.size());
  out += value_grid(frame, unit);
  out += change_lines(frame, runs.size(), changes);
  out += trial_dots(frame, runs);
  std::string medians;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    medians += fmt::format("{:.1f},{:.1f} ", frame.x(i), frame.y(runs[i].median));
  }
  out += fmt::format("<polyline class='median' points='{}'/>", medians);
  out += fmt::format("<text class='date' x='{}' y='{}'>{}</text><text class='date end' x='{}' y='{}'>{}</text>",
                     kChartLeft, kChartHeight - 10, escape(runs.front().date), kChartWidth - kChartRight,
                     kChartHeight - 10, escape(runs.back().date));
  out += "</svg>";
  return out;
}

}  // namespace perfzero::history_site
