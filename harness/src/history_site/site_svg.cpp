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

std::string series_chart(const std::vector<ChartRun>& runs,
                         const std::vector<std::pair<std::size_t, std::string>>& changes, const std::string& unit) {
  constexpr double kWidth = 960;
  constexpr double kHeight = 320;
  constexpr double kLeft = 80;
  constexpr double kRight = 16;
  constexpr double kTop = 28;
  constexpr double kBottom = 36;
  Range r;
  for (const auto& run : runs) {
    r.add(run.median);
    for (double v : run.trials) r.add(v);
    for (double v : run.disturbed) r.add(v);
  }
  if (r.empty()) return "<p>No points to draw.</p>";
  // Values near the double's limit (a worker may report 1e308) leave no finite span to scale.
  if (!std::isfinite(r.high - r.low) || !std::isfinite(std::fabs(r.low) + std::fabs(r.high))) {
    return "<p>The values are too large to draw.</p>";
  }
  if (r.high == r.low) {
    r.low -= 0.5 * (r.low == 0 ? 1 : std::abs(r.low) * 0.01);
    r.high += 0.5 * (r.high == 0 ? 1 : std::abs(r.high) * 0.01);
  }
  const auto axis = fleet_report::svg::nice_axis(r.low, r.high, 5);
  const double plot_w = kWidth - kLeft - kRight;
  const double plot_h = kHeight - kTop - kBottom;
  const double slot = plot_w / static_cast<double>(runs.size());
  const auto x = [&](std::size_t i) { return kLeft + (static_cast<double>(i) + 0.5) * slot; };
  const auto y = [&](double v) { return kTop + plot_h - (v - axis.low) / (axis.high - axis.low) * plot_h; };
  std::string out = fmt::format(
      "<svg class='chart' width='{0}' height='{1}' viewBox='0 0 {0} {1}' role='img' aria-label='every trial of the "
      "last {2} "
      "runs, their medians and change points'>",
      kWidth, kHeight, runs.size());
  const auto labels = fleet_report::si_ticks(axis.ticks, unit);
  for (std::size_t i = 0; i < axis.ticks.size(); ++i) {
    const double ty = y(axis.ticks[i]);
    out += fmt::format(
        "<line class='grid' x1='{}' x2='{}' y1='{:.1f}' y2='{:.1f}'/><text class='tick' x='{}' y='{:.1f}'>{}</text>",
        kLeft, kWidth - kRight, ty, ty, kLeft - 6, ty + 4, escape(i < labels.size() ? labels[i] : ""));
  }
  for (const auto& [position, label] : changes) {
    if (position >= runs.size()) continue;
    const double cx = x(position) - slot / 2;
    out += fmt::format(
        "<line class='cp' x1='{0:.1f}' x2='{0:.1f}' y1='{1}' y2='{2}'/><text class='cpl' x='{3:.1f}' "
        "y='{4}'>{5}</text>",
        cx, kTop - 4, kTop + plot_h, cx + 3, kTop - 8, escape(label));
  }
  const double radius = std::clamp(slot / 3, 1.0, 3.0);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& run = runs[i];
    for (double v : run.trials)
      out += fmt::format("<circle class='t' cx='{:.1f}' cy='{:.1f}' r='{:.1f}'/>", x(i), y(v), radius);
    for (double v : run.disturbed) {
      out += fmt::format("<circle class='td' cx='{:.1f}' cy='{:.1f}' r='{:.1f}'/>", x(i), y(v), radius);
    }
  }
  std::string medians;
  for (std::size_t i = 0; i < runs.size(); ++i) medians += fmt::format("{:.1f},{:.1f} ", x(i), y(runs[i].median));
  out += fmt::format("<polyline class='median' points='{}'/>", medians);
  out += fmt::format("<text class='date' x='{}' y='{}'>{}</text><text class='date end' x='{}' y='{}'>{}</text>", kLeft,
                     kHeight - 10, escape(runs.front().date), kWidth - kRight, kHeight - 10, escape(runs.back().date));
  out += "</svg>";
  return out;
}

}  // namespace perfzero::history_site
