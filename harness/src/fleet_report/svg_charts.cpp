// Bars per method: the median of each configuration, its min–max, every trial as a dot (the middle
// half past 60 trials), on an axis that starts at 0 with ticks at round numbers. The label column
// is as wide as the longest configuration name, so no name is clipped.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "fleet_report/html_parts.hpp"
#include "fleet_report/html_text.hpp"
#include "fleet_report/report_writers.hpp"
#include "fleet_report/svg_axis.hpp"

namespace perfzero::fleet_report::svg {

namespace {

using html::escape;

constexpr int kRowHeight = 24;
constexpr double kFont = 12;
constexpr int kPlotWidth = 340;
constexpr std::size_t kMaxDots = 60;  // past this many trials a bar shows their middle half

// Where the chart's parts lie: the label column, the plot, the value column, and a value's x.
struct BarsFrame {
  Axis axis;
  int left = 0;  // the plot's left edge, past the longest label
  int top = 6;
  int plot_h = 0;
  int width = 0;
  int height = 0;
  int px(double v) const {
    return left + static_cast<int>(std::lround((v - axis.low) / (axis.high - axis.low) * kPlotWidth));
  }
};

BarsFrame bars_frame(const MethodRow& row, const FleetReport& report, const std::string& unit) {
  const auto& configs = report.configurations;
  double max_value = 0;
  double label_w = 60;
  double value_w = 60;
  for (std::size_t j = 0; j < configs.size(); ++j) {
    const Cell& cell = row.cells[j];
    for (const double v : row.metric ? cell.metric_values : cell.wall_times) max_value = std::max(max_value, v);
    label_w = std::max(label_w, text_width(configs[j].key, kFont));
    const auto& stats = row.metric ? cell.metric : cell.wall;
    value_w = std::max(value_w, text_width(stats.median ? si(stats.median, unit) : no_figure_label(cell), kFont));
  }
  BarsFrame f;
  f.axis = nice_axis(0, max_value > 0 ? max_value : 1);
  f.left = static_cast<int>(std::ceil(label_w)) + 14;
  f.plot_h = kRowHeight * static_cast<int>(configs.size());
  f.width = f.left + kPlotWidth + 10 + static_cast<int>(std::ceil(value_w)) + 10;
  f.height = f.top + f.plot_h + 44;
  return f;
}

// The grid, its tick labels, the value axis and its label.
std::string bars_axis(const BarsFrame& f, const MethodRow& row) {
  std::string out;
  const auto labels = si_ticks(f.axis.ticks, row.metric ? "" : "s");
  for (std::size_t i = 0; i < f.axis.ticks.size(); ++i) {  // grid and tick labels
    out += fmt::format(R"(<line x1="{0}" x2="{0}" y1="{1}" y2="{2}" class="grid"/>)"
                       R"(<text x="{0}" y="{3}" text-anchor="middle" class="tick">{4}</text>)",
                       f.px(f.axis.ticks[i]), f.top, f.top + f.plot_h + 4, f.top + f.plot_h + 17, escape(labels[i]));
  }
  out += fmt::format(R"(<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" class="axis"/>)", f.left, f.left + kPlotWidth,
                     f.top + f.plot_h);
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" class="axis-label">{}</text>)",
                     f.left + kPlotWidth / 2, f.top + f.plot_h + 36,
                     escape(row.metric ? fmt::format("{} (longer is faster)", row.metric->unit)
                                       : std::string("wall time (shorter is faster)")));
  return out;
}

// One configuration's row at `y`: its name, then its bar, whisker, trials and median, or why it has none.
std::string bar_row(const BarsFrame& f, const MethodRow& row, const Cell& cell, const std::string& key, int y,
                    const std::string& unit) {
  std::string out =
      fmt::format(R"(<text x="{}" y="{}" text-anchor="end" class="row">{}</text>)", f.left - 8, y + 16, escape(key));
  const auto& values = row.metric ? cell.metric_values : cell.wall_times;
  const auto& stats = row.metric ? cell.metric : cell.wall;
  if (cell.trials == 0 || values.empty() || !stats.median) {
    // Trials left out as disturbed did not fail: grey, like a configuration that did not run.
    return out + fmt::format(R"(<text x="{}" y="{}" class="{}">{}</text>)", f.left + 4, y + 16,
                             cell.trials == 0 || !left_out_label(cell).empty() ? "na" : "bad",
                             escape(no_figure_label(cell)));
  }
  out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="14" class="bar{}"><title>median {}</title></rect>)",
                     f.left, y + 5, std::max(1, f.px(*stats.median) - f.left), cell.ok() ? "" : " partial",
                     escape(si(stats.median, unit)));
  if (stats.min && stats.max) {
    out += fmt::format(R"(<line x1="{}" x2="{}" y1="{}" y2="{}" class="whisker"/>)", f.px(*stats.min), f.px(*stats.max),
                       y + 12, y + 12);
  }
  if (values.size() <= kMaxDots) {
    for (const double v : values) {
      out += fmt::format(R"(<circle cx="{}" cy="{}" r="2.5" class="trial"><title>{}</title></circle>)", f.px(v), y + 12,
                         escape(si(v, unit)));
    }
  } else if (stats.p25 && stats.p75) {
    // Thousands of dots would say less than the middle half of the trials, and weigh megabytes.
    out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="8" class="iqr"><title>{} trials; middle half {} to {})"
                       R"(</title></rect>)",
                       f.px(*stats.p25), y + 8, std::max(1, f.px(*stats.p75) - f.px(*stats.p25)), values.size(),
                       escape(si(stats.p25, unit)), escape(si(stats.p75, unit)));
  }
  out += fmt::format(R"(<text x="{}" y="{}" class="value">{}{}</text>)", f.left + kPlotWidth + 10, y + 16,
                     escape(si(stats.median, unit)), cell.ok() ? "" : escape(" (" + no_figure_label(cell) + ")"));
  return out;
}

}  // namespace

std::string bars(const MethodRow& row, const FleetReport& report) {
  const auto& configs = report.configurations;
  const std::string unit = row.metric ? row.metric->unit : "s";
  const BarsFrame f = bars_frame(row, report, unit);
  std::string out =
      fmt::format(R"(<svg class="bars" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" )"
                  R"(role="img" aria-label="{} per configuration">)",
                  f.width, f.height, f.width, f.height, escape(row.metric ? row.metric->name : "wall time"));
  out += bars_axis(f, row);
  for (std::size_t j = 0; j < configs.size(); ++j) {
    out += bar_row(f, row, row.cells[j], configs[j].key, f.top + kRowHeight * static_cast<int>(j), unit);
  }
  return out + "</svg>";
}

}  // namespace perfzero::fleet_report::svg
