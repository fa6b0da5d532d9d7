// A method's scaling on one shape: throughput against node count, each node count's median joined by
// a line (its trials' min–max as a whisker), beside the ideal, linear from the smallest node count
// (dashed). Ticks at round numbers on the throughput axis and at each node count on the other.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fleet_report/html_parts.hpp"
#include "fleet_report/html_text.hpp"
#include "fleet_report/report_writers.hpp"
#include "fleet_report/svg_axis.hpp"

namespace perfzero::fleet_report::svg {

namespace {

using html::escape;

constexpr int kScalingPlotWidth = 320;
constexpr int kScalingPlotHeight = 200;

constexpr int kScalingTop = 10;

// The chart's axes, fitted to the measured throughputs and to the ideal at the most nodes, and where a
// node count and a throughput fall on it.
struct ScalingFrame {
  std::optional<double> base;  // the first measured throughput: what the ideal scales from
  int max_nodes = 1;
  double ideal_at_max = 0;
  Axis y;
  std::vector<std::string> labels;  // of y's ticks
  int left = 0;
  double px(double nodes) const { return left + nodes / max_nodes * kScalingPlotWidth; }
  double py(double v) const {
    return kScalingTop + kScalingPlotHeight - (v - y.low) / (y.high - y.low) * kScalingPlotHeight;
  }
};

// The frame; none when no node count has a throughput.
std::optional<ScalingFrame> scaling_frame(const MethodRow& row, const Scaling& s) {
  ScalingFrame f;
  double max_value = 0;
  for (const auto& p : s.points) {
    f.max_nodes = std::max(f.max_nodes, p.nodes);
    if (!p.throughput) continue;
    if (!f.base) f.base = p.throughput;
    max_value = std::max(max_value, *p.throughput);
    const auto& stats = row.cells[p.config].metric;
    if (row.metric && stats.max) max_value = std::max(max_value, *stats.max);
  }
  if (!f.base) return std::nullopt;
  f.ideal_at_max = *f.base * f.max_nodes / s.base_nodes;
  f.y = nice_axis(0, std::max(max_value, f.ideal_at_max));
  f.labels = si_ticks(f.y.ticks, "");
  double label_w = 0;
  for (const auto& l : f.labels) label_w = std::max(label_w, text_width(l, 11));
  f.left = static_cast<int>(std::ceil(label_w)) + 46;
  return f;
}

// The throughput grid and ticks, a tick at each node count, both axes and their labels.
std::string scaling_axes(const ScalingFrame& f, const Scaling& s) {
  const int left = f.left;
  const int top = kScalingTop;
  std::string out;
  for (std::size_t i = 0; i < f.y.ticks.size(); ++i) {
    out += fmt::format(R"(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" class="grid"/>)"
                       R"(<text x="{3}" y="{4:.1f}" text-anchor="end" class="tick">{5}</text>)",
                       left, left + kScalingPlotWidth, f.py(f.y.ticks[i]), left - 6, f.py(f.y.ticks[i]) + 4,
                       escape(f.labels[i]));
  }
  for (const auto& p : s.points) {
    out += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle" class="tick">{}</text>)", f.px(p.nodes),
                       top + kScalingPlotHeight + 16, p.nodes);
  }
  out += fmt::format(R"(<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" class="axis"/>)"
                     R"(<line x1="{0}" x2="{0}" y1="{3}" y2="{2}" class="axis"/>)",
                     left, left + kScalingPlotWidth, top + kScalingPlotHeight, top);
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" class="axis-label">hosts</text>)",
                     left + kScalingPlotWidth / 2, top + kScalingPlotHeight + 34);
  out += fmt::format(
      R"svg(<text x="12" y="{0}" text-anchor="middle" class="axis-label" transform="rotate(-90 12 {0})">)svg"
      R"({1} (higher is faster)</text>)",
      top + kScalingPlotHeight / 2, escape(s.unit));
  return out;
}

// The ideal line, the medians joined, and each node count's point with its min–max whisker.
std::string scaling_lines(const ScalingFrame& f, const MethodRow& row, const Scaling& s) {
  std::string out = fmt::format(
      R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" class="ideal"><title>ideal: {} x N/{}</title></line>)",
      f.px(0), f.py(0), f.px(f.max_nodes), f.py(f.ideal_at_max), escape(si(f.base, s.unit)), s.base_nodes);
  std::string line;
  for (const auto& p : s.points) {
    if (p.throughput) {
      line += fmt::format("{}{:.1f},{:.1f}", line.empty() ? "" : " ", f.px(p.nodes), f.py(*p.throughput));
    }
  }
  out += fmt::format(R"(<polyline points="{}" class="measured"/>)", line);
  for (const auto& p : s.points) {
    if (!p.throughput) continue;
    const auto& stats = row.cells[p.config].metric;
    if (row.metric && stats.min && stats.max) {
      out += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1:.1f}" y2="{2:.1f}" class="whisker"/>)",
                         f.px(p.nodes), f.py(*stats.min), f.py(*stats.max));
    }
    out += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="4" class="{}"><title>{} hosts: {}{}</title></circle>)",
                       f.px(p.nodes), f.py(*p.throughput), row.cells[p.config].ok() ? "node" : "node bad", p.nodes,
                       escape(si(p.throughput, s.unit)),
                       p.efficiency ? ", efficiency " + efficiency_text(p.efficiency) : "");
  }
  return out;
}

}  // namespace

std::string scaling_chart(const MethodRow& row, const Scaling& s) {
  const std::optional<ScalingFrame> frame = scaling_frame(row, s);
  if (!frame) return "";
  const ScalingFrame& f = *frame;
  const int left = f.left;
  const int top = kScalingTop;
  const int width = left + kScalingPlotWidth + 20;
  const int height = top + kScalingPlotHeight + 46;
  std::string out = fmt::format(
      R"(<svg class="scaling" xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
      R"(role="img" aria-label="{2} against hosts on {3}">)",
      width, height, escape(s.unit), escape(s.name));
  out += scaling_axes(f, s);
  out += scaling_lines(f, row, s);
  out += fmt::format(R"(<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" class="ideal"/>)"
                     R"(<text x="{3}" y="{4}" class="tick">ideal (linear from {5} host{6})</text>)",
                     left + 8, left + 30, top + 8, left + 36, top + 12, s.base_nodes, s.base_nodes == 1 ? "" : "s");
  return out + "</svg>";
}

}  // namespace perfzero::fleet_report::svg
