#include "report/svg_charts.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/html_text.hpp"
#include "report/rankings.hpp"
#include "report/report_writers.hpp"

namespace perfzero::report::svg {

namespace {

using html::escape;

constexpr int kLabelWidth = 330;
constexpr int kRowHeight = 26;
constexpr std::size_t kMaxDots = 60;  // past this many trials a bar shows their middle half

std::string shorten(const std::string& s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n - 1) + "…"; }

// White to deep blue as a cell nears the fastest configuration.
std::string blue(double t) {
  const auto mix = [&](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * std::clamp(t, 0.0, 1.0))); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(239, 8), mix(243, 81), mix(255, 156));
}

std::string failed_label(const Cell& cell) {
  return fmt::format("{} {}/{}", to_string(cell.outcome), cell.trials - cell.succeeded, cell.trials);
}

}  // namespace

std::optional<double> relative_speed(const MethodRow& row, const Cell& cell) {
  const auto s = speed_of(row, cell);
  if (!s || !row.speed.leader) return std::nullopt;
  const auto best = speed_of(row, row.cells[*row.speed.leader]);
  if (!best || *best <= 0) return std::nullopt;
  return *s / *best;
}

std::string heatmap(const Report& report) {
  const int cell_w = 120;
  const int width = kLabelWidth + cell_w * static_cast<int>(report.configurations.size()) + 10;
  const int height = 60 + kRowHeight * static_cast<int>(report.methods.size());
  std::string out = fmt::format(R"(<svg class="heatmap" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" )"
                                R"(role="img" aria-label="method by configuration heatmap">)",
                                width, height);
  for (std::size_t j = 0; j < report.configurations.size(); ++j) {
    const int x = kLabelWidth + cell_w * static_cast<int>(j) + cell_w / 2;
    out += fmt::format(R"(<text x="{}" y="40" text-anchor="middle" class="col"><title>{}</title>{}</text>)", x,
                       escape(report.configurations[j].key), escape(shorten(report.configurations[j].key, 18)));
  }
  for (std::size_t i = 0; i < report.methods.size(); ++i) {
    const MethodRow& row = report.methods[i];
    const int y = 50 + kRowHeight * static_cast<int>(i);
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="end" class="row"><title>{}</title>{}</text>)",
                       kLabelWidth - 8, y + 17, escape(row.name), escape(shorten(row.name, 46)));
    for (std::size_t j = 0; j < report.configurations.size(); ++j) {
      const Cell& cell = row.cells[j];
      const int x = kLabelWidth + cell_w * static_cast<int>(j);
      std::string fill = "#eeeeee";
      std::string text = "not run";
      std::string css = "na";
      if (cell.trials > 0 && !cell.ok()) {
        fill = "#f8d0cc";
        text = failed_label(cell);
        css = "bad";
      } else if (const auto rel = relative_speed(row, cell)) {
        fill = blue(*rel);
        text = row.metric ? number(cell.metric.median) : number(cell.wall.median) + " s";
        css = *rel > 0.55 ? "dark" : "light";
      }
      out += fmt::format(R"(<g class="cell {}"><title>{} on {}: {}</title><rect x="{}" y="{}" width="{}" height="{}" )"
                         R"(fill="{}"/><text x="{}" y="{}" text-anchor="middle">{}</text></g>)",
                         css, escape(row.name), escape(report.configurations[j].key), escape(cell_status(cell)), x + 1,
                         y + 1, cell_w - 2, kRowHeight - 2, fill, x + cell_w / 2, y + 17, escape(text));
    }
  }
  return out + "</svg>";
}

std::string bars(const MethodRow& row, const std::vector<Configuration>& configs) {
  const int plot_w = 420;
  const int height = 20 + kRowHeight * static_cast<int>(configs.size());
  double max_value = 0;
  for (const auto& cell : row.cells) {
    const auto& values = row.metric ? cell.metric_values : cell.wall_times;
    for (const double v : values) max_value = std::max(max_value, v);
  }
  if (max_value <= 0) max_value = 1;
  std::string out =
      fmt::format(R"(<svg class="bars" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" )"
                  R"(role="img" aria-label="{} per configuration">)",
                  kLabelWidth + plot_w + 120, height, escape(row.metric ? row.metric->name : "wall time"));
  for (std::size_t j = 0; j < configs.size(); ++j) {
    const Cell& cell = row.cells[j];
    const int y = 10 + kRowHeight * static_cast<int>(j);
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="end" class="row">{}</text>)", kLabelWidth - 8, y + 16,
                       escape(shorten(configs[j].key, 44)));
    const auto& values = row.metric ? cell.metric_values : cell.wall_times;
    const auto& stats = row.metric ? cell.metric : cell.wall;
    if (cell.trials == 0 || values.empty() || !stats.median) {
      out += fmt::format(R"(<text x="{}" y="{}" class="{}">{}</text>)", kLabelWidth + 4, y + 16,
                         cell.trials == 0 ? "na" : "bad", escape(cell.trials == 0 ? "not run" : failed_label(cell)));
      continue;
    }
    const auto px = [&](double v) { return kLabelWidth + static_cast<int>(std::lround(v / max_value * plot_w)); };
    out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="14" class="bar{}"><title>median {}</title></rect>)",
                       kLabelWidth, y + 5, std::max(1, px(*stats.median) - kLabelWidth), cell.ok() ? "" : " partial",
                       escape(number(stats.median)));
    if (stats.min && stats.max) {
      out += fmt::format(R"(<line x1="{}" x2="{}" y1="{}" y2="{}" class="whisker"/>)", px(*stats.min), px(*stats.max),
                         y + 12, y + 12);
    }
    if (values.size() <= kMaxDots) {
      for (const double v : values) {
        out += fmt::format(R"(<circle cx="{}" cy="{}" r="2.5" class="trial"><title>{}</title></circle>)", px(v), y + 12,
                           escape(number(v)));
      }
    } else if (stats.p25 && stats.p75) {
      // Thousands of dots would say less than the middle half of the trials, and weigh megabytes.
      out +=
          fmt::format(R"(<rect x="{}" y="{}" width="{}" height="8" class="iqr"><title>{} trials; middle half {} to {})"
                      R"(</title></rect>)",
                      px(*stats.p25), y + 8, std::max(1, px(*stats.p75) - px(*stats.p25)), values.size(),
                      escape(number(stats.p25)), escape(number(stats.p75)));
    }
    out += fmt::format(R"(<text x="{}" y="{}" class="value">{}{}</text>)", kLabelWidth + plot_w + 8, y + 16,
                       escape(number(stats.median)), cell.ok() ? "" : escape(" (" + failed_label(cell) + ")"));
  }
  return out + "</svg>";
}

}  // namespace perfzero::report::svg
