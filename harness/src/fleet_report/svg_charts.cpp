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

std::string failed_label(const Cell& cell) {
  return fmt::format("{} {}/{}", to_string(cell.outcome), cell.trials - cell.succeeded, cell.trials);
}

}  // namespace

std::string bars(const MethodRow& row, const FleetReport& report) {
  const auto& configs = report.configurations;
  const std::string unit = row.metric ? row.metric->unit : "s";
  double max_value = 0;
  double label_w = 60;
  double value_w = 60;
  for (std::size_t j = 0; j < configs.size(); ++j) {
    const Cell& cell = row.cells[j];
    for (const double v : row.metric ? cell.metric_values : cell.wall_times) max_value = std::max(max_value, v);
    label_w = std::max(label_w, text_width(configs[j].key, kFont));
    const auto& stats = row.metric ? cell.metric : cell.wall;
    value_w = std::max(value_w, text_width(cell.ok() ? si(stats.median, unit) : failed_label(cell), kFont));
  }
  const Axis axis = nice_axis(0, max_value > 0 ? max_value : 1);
  const int left = static_cast<int>(std::ceil(label_w)) + 14;
  const int top = 6;
  const int plot_h = kRowHeight * static_cast<int>(configs.size());
  const int width = left + kPlotWidth + 10 + static_cast<int>(std::ceil(value_w)) + 10;
  const int height = top + plot_h + 44;
  const auto px = [&](double v) {
    return left + static_cast<int>(std::lround((v - axis.low) / (axis.high - axis.low) * kPlotWidth));
  };
  std::string out =
      fmt::format(R"(<svg class="bars" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" )"
                  R"(role="img" aria-label="{} per configuration">)",
                  width, height, width, height, escape(row.metric ? row.metric->name : "wall time"));
  const auto labels = si_ticks(axis.ticks, row.metric ? "" : "s");
  for (std::size_t i = 0; i < axis.ticks.size(); ++i) {  // grid and tick labels
    out += fmt::format(R"(<line x1="{0}" x2="{0}" y1="{1}" y2="{2}" class="grid"/>)"
                       R"(<text x="{0}" y="{3}" text-anchor="middle" class="tick">{4}</text>)",
                       px(axis.ticks[i]), top, top + plot_h + 4, top + plot_h + 17, escape(labels[i]));
  }
  out +=
      fmt::format(R"(<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" class="axis"/>)", left, left + kPlotWidth, top + plot_h);
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" class="axis-label">{}</text>)", left + kPlotWidth / 2,
                     top + plot_h + 36,
                     escape(row.metric ? fmt::format("{} (longer is faster)", row.metric->unit)
                                       : std::string("wall time (shorter is faster)")));
  for (std::size_t j = 0; j < configs.size(); ++j) {
    const Cell& cell = row.cells[j];
    const int y = top + kRowHeight * static_cast<int>(j);
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="end" class="row">{}</text>)", left - 8, y + 16,
                       escape(configs[j].key));
    const auto& values = row.metric ? cell.metric_values : cell.wall_times;
    const auto& stats = row.metric ? cell.metric : cell.wall;
    if (cell.trials == 0 || values.empty() || !stats.median) {
      out += fmt::format(R"(<text x="{}" y="{}" class="{}">{}</text>)", left + 4, y + 16,
                         cell.trials == 0 ? "na" : "bad", escape(cell.trials == 0 ? "not run" : failed_label(cell)));
      continue;
    }
    out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="14" class="bar{}"><title>median {}</title></rect>)",
                       left, y + 5, std::max(1, px(*stats.median) - left), cell.ok() ? "" : " partial",
                       escape(si(stats.median, unit)));
    if (stats.min && stats.max) {
      out += fmt::format(R"(<line x1="{}" x2="{}" y1="{}" y2="{}" class="whisker"/>)", px(*stats.min), px(*stats.max),
                         y + 12, y + 12);
    }
    if (values.size() <= kMaxDots) {
      for (const double v : values) {
        out += fmt::format(R"(<circle cx="{}" cy="{}" r="2.5" class="trial"><title>{}</title></circle>)", px(v), y + 12,
                           escape(si(v, unit)));
      }
    } else if (stats.p25 && stats.p75) {
      // Thousands of dots would say less than the middle half of the trials, and weigh megabytes.
      out +=
          fmt::format(R"(<rect x="{}" y="{}" width="{}" height="8" class="iqr"><title>{} trials; middle half {} to {})"
                      R"(</title></rect>)",
                      px(*stats.p25), y + 8, std::max(1, px(*stats.p75) - px(*stats.p25)), values.size(),
                      escape(si(stats.p25, unit)), escape(si(stats.p75, unit)));
    }
    out += fmt::format(R"(<text x="{}" y="{}" class="value">{}{}</text>)", left + kPlotWidth + 10, y + 16,
                       escape(si(stats.median, unit)), cell.ok() ? "" : escape(" (" + failed_label(cell) + ")"));
  }
  return out + "</svg>";
}

}  // namespace perfzero::fleet_report::svg
