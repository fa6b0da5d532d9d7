// Methods x configurations as an HTML table: the browser lays out the names (a header wraps at the
// parts of a shape's name, a method's name is shown whole) so that no text overlaps another or is
// clipped, and a narrow window scrolls the table sideways with the method names kept in view.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "fleet_report/html_parts.hpp"
#include "fleet_report/html_text.hpp"
#include "fleet_report/rankings.hpp"
#include "fleet_report/report_writers.hpp"

namespace perfzero::fleet_report::html {

namespace {

// White to deep blue as a cell nears the method's leader.
std::string blue(double t) {
  const auto mix = [&](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * std::clamp(t, 0.0, 1.0))); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(239, 8), mix(243, 81), mix(255, 156));
}

std::string heat_cell(const FleetReport& report, const MethodRow& row, std::size_t j) {
  const Cell& cell = row.cells[j];
  const auto& key = report.configurations[j].key;
  std::string title = fmt::format("{} on {}: {}", row.name, key, cell_status(cell));
  const std::string note = disturbance_note(cell, report.settings.use_flagged);
  if (!note.empty()) title += "; " + note;
  if (cell.trials == 0) return fmt::format("<td class='heat na' title='{}'>not run</td>", escape(title));
  if (!cell.ok())
    return fmt::format("<td class='heat bad' title='{}'>{}</td>", escape(title), escape(no_figure_label(cell)));
  if (const std::string left_out = left_out_label(cell); !left_out.empty()) {
    return fmt::format("<td class='heat na' title='{}'>{}</td>", escape(title), escape(left_out));
  }
  const auto rel = relative_speed(row, cell);
  const std::string value = row.metric ? si(cell.metric.median, row.metric->unit) : si(cell.wall.median, "s");
  if (!rel) return fmt::format("<td class='heat na' title='{}'>{}</td>", escape(title), escape(value));
  std::string mark;
  const std::string speed = speed_mark(row, j);
  if (speed == "fastest") mark = "<span class=star title='fastest'>★</span> ";
  if (speed.starts_with("tie")) mark = "<span class=star title='tie for fastest'>≈</span> ";
  if (!note.empty()) mark += "<span class=flag title='" + escape(note) + "'>⚑</span> ";
  return fmt::format(
      "<td class='heat{}' style='background:{}' title='{}; {:.0f}% of the leader&#39;s speed'{}>{}{}</td>",
      *rel > 0.55 ? " dark" : "", blue(*rel), escape(title), *rel * 100,
      sort_value(row.metric ? cell.metric.median : cell.wall.median), mark, escape(value));
}

}  // namespace

std::string heatmap(const FleetReport& report) {
  std::string out =
      "<div class=scroll><table class=heatmap aria-label='methods by configuration'><thead><tr><th "
      "class='name corner'>method \\ configuration</th>";
  for (const auto& c : report.configurations) {
    out += fmt::format("<th class=col title='{}'>{}</th>", escape(c.key), breakable(c.key));
  }
  out += "</tr></thead><tbody>";
  for (const auto& row : report.methods) {
    out += fmt::format("<tr><th class=name scope=row>{}</th>", breakable(row.name));
    for (std::size_t j = 0; j < report.configurations.size(); ++j) out += heat_cell(report, row, j);
    out += "</tr>";
  }
  return out + "</tbody></table></div>";
}

}  // namespace perfzero::fleet_report::html
