#include "history_site/site_overview_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "common/utc_time.hpp"
#include "fleet_report/figure_text.hpp"
#include "fleet_report/html_text.hpp"
#include "fleet_report/svg_axis.hpp"
#include "history_site/site_page.hpp"

namespace perfzero::history_site {

namespace {

using fleet_report::html::escape;

// Narrower than a series page's chart: at half a laptop's width it shrinks less, and its text stays legible.
constexpr double kWidth = 800;
constexpr double kHeight = 250;
constexpr double kLeft = 74;
constexpr double kRight = 16;
constexpr double kTop = 40;  // room for three staggered rows of commit labels
constexpr double kBottom = 28;

// Okabe and Ito's colours, which stay apart for colour-blind readers; past eight, dashes tell lines apart.
constexpr std::array<const char*, 8> kColours{"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                              "#e69f00", "#56b4e9", "#1b1f24", "#8c564b"};
constexpr std::array<const char*, 3> kDashes{"", "6 3", "2 2"};

struct Frame {
  double t_low = 0, t_high = 1;
  fleet_report::svg::Axis axis;
  double x(double t) const { return kLeft + (t - t_low) / (t_high - t_low) * (kWidth - kLeft - kRight); }
  double y(double v) const {
    const double h = kHeight - kTop - kBottom;
    return kTop + h - (v - axis.low) / (axis.high - axis.low) * h;
  }
};

// The frame every point fits in; false when there is none or the values leave no finite span.
bool frame_of(const std::vector<OverviewLine>& lines, Frame& f) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  f.t_low = low;
  f.t_high = high;
  for (const auto& line : lines) {
    for (const auto& [t, v] : line.points) {
      f.t_low = std::min(f.t_low, t);
      f.t_high = std::max(f.t_high, t);
      low = std::min(low, v);
      high = std::max(high, v);
    }
  }
  if (low > high || !std::isfinite(high - low) || !std::isfinite(std::fabs(low) + std::fabs(high))) return false;
  if (high == low) {
    low -= 0.5 * (low == 0 ? 1 : std::abs(low) * 0.01);
    high += 0.5 * (high == 0 ? 1 : std::abs(high) * 0.01);
  }
  if (f.t_high == f.t_low) {  // one run: drawn in the middle
    f.t_low -= 43200;
    f.t_high += 43200;
  }
  f.axis = fleet_report::svg::nice_axis(low, high, 4);
  return true;
}

std::string grid(const Frame& f, const std::string& unit) {
  std::string out;
  const auto labels = fleet_report::si_ticks(f.axis.ticks, unit);
  for (std::size_t i = 0; i < f.axis.ticks.size(); ++i) {
    const double ty = f.y(f.axis.ticks[i]);
    out += fmt::format(
        "<line class='grid' x1='{}' x2='{}' y1='{:.1f}' y2='{:.1f}'/><text class='tick' x='{}' y='{:.1f}'>{}</text>",
        kLeft, kWidth - kRight, ty, ty, kLeft - 6, ty + 4, escape(i < labels.size() ? labels[i] : ""));
  }
  // Dates at the ends and the middle; within two days, times too (UTC).
  const bool short_span = f.t_high - f.t_low < 2 * 86400.0;
  const auto when = [&](double t) {
    if (!short_span) return date_of(t);
    std::string s = text::utc_time(t).substr(5, 11);  // MM-DDTHH:MM
    if (s.size() > 5) s[5] = ' ';
    return s;
  };
  const double middle = (f.t_low + f.t_high) / 2;
  out += fmt::format(
      "<text class='date' x='{}' y='{}'>{}</text><text class='date mid' x='{:.1f}' y='{}'>{}</text>"
      "<text class='date end' x='{}' y='{}'>{}</text>",
      kLeft, kHeight - 8, when(f.t_low), f.x(middle), kHeight - 8, when(middle), kWidth - kRight, kHeight - 8,
      when(f.t_high));
  return out;
}

// A line's change points: a dashed rule in its colour, and its commit above the plot (rows staggered
// so that neighbouring labels do not overprint each other).
std::string change_marks(const Frame& f, const OverviewLine& line, std::size_t k, std::size_t& label_row) {
  std::string out;
  for (const auto& [position, label] : line.changes) {
    if (position >= line.points.size()) continue;
    const double cx = f.x(line.points[position].first);
    const double ty = kTop - 6 - 11 * static_cast<double>(label_row++ % 3);
    out += fmt::format(
        "<g class='cpm'><title>{0}</title><line x1='{1:.1f}' x2='{1:.1f}' y1='{2:.1f}' y2='{3}' stroke='{4}'/>"
        "<circle cx='{1:.1f}' cy='{5:.1f}' r='3.5' fill='{4}'/><text x='{1:.1f}' y='{2:.1f}' fill='{4}'>{0}</text></g>",
        escape(label), cx, ty + 2, kHeight - kBottom, kColours[k % kColours.size()], f.y(line.points[position].second));
  }
  return out;
}

}  // namespace

std::string line_style(std::size_t k) {
  const char* dash = kDashes[(k / kColours.size()) % kDashes.size()];
  return fmt::format("stroke='{}'{}", kColours[k % kColours.size()],
                     *dash != '\0' ? fmt::format(" stroke-dasharray='{}'", dash) : std::string());
}

std::string line_swatch(std::size_t k) {
  return fmt::format(
      "<svg class='swatch' width='28' height='10' viewBox='0 0 28 10' aria-hidden='true'><line x1='1' "
      "x2='27' y1='5' y2='5' stroke-width='2.5' {}/></svg>",
      line_style(k));
}

std::string overview_chart(const std::vector<OverviewLine>& lines, const std::string& unit) {
  Frame f;
  if (!frame_of(lines, f)) return "<p>No points to draw, or values too large to draw.</p>";
  std::string out = fmt::format(
      "<svg class='overview' width='{0}' height='{1}' viewBox='0 0 {0} {1}' role='img' aria-label='the main metric of "
      "{2} configuration(s) over time, with their change points'>",
      kWidth, kHeight, lines.size());
  out += grid(f, unit);
  std::size_t label_row = 0;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const auto& line = lines[k];
    std::string points;
    for (const auto& [t, v] : line.points) points += fmt::format("{:.1f},{:.1f} ", f.x(t), f.y(v));
    out += fmt::format("<polyline class='ml' points='{}' {}/>", points, line_style(k));
    // Dots where they stay apart; else only the newest, so that a line of one run still shows.
    const std::size_t dots_from = line.points.size() <= 60 ? 0 : line.points.size() - 1;
    for (std::size_t i = dots_from; i < line.points.size(); ++i) {
      out += fmt::format("<circle cx='{:.1f}' cy='{:.1f}' r='2' fill='{}'/>", f.x(line.points[i].first),
                         f.y(line.points[i].second), kColours[k % kColours.size()]);
    }
    out += change_marks(f, line, k, label_row);
  }
  return out + "</svg>";
}

}  // namespace perfzero::history_site
