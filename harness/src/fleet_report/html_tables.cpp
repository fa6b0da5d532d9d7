// The page's tables: the configurations, and one ranking per method. Every figure reads as people
// read it (444 M points/s, $4.85 per million runs) and carries its exact value in data-v, which is
// what a click on a header sorts by.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "common/text.hpp"
#include "fleet_report/html_parts.hpp"
#include "fleet_report/html_text.hpp"
#include "fleet_report/rankings.hpp"
#include "fleet_report/report_writers.hpp"
#include "fleet_report/scaling.hpp"

namespace perfzero::fleet_report::html {

namespace {

std::string measured_cell(const Configuration& c) {
  const std::string measured = escape(measured_text(c));
  if (c.shape_mismatches.empty()) return fmt::format("<td class=name>{}</td>", measured);
  return fmt::format("<td class='name mismatch' title='{}'>⚠ {}<br><small>not the catalog&#39;s shape</small></td>",
                     escape(text::join(c.shape_mismatches, "\n")), measured);
}

// A cluster's hosts, each with its system info as its own agent saw it (the system info above is the
// host perfzero ran on).
std::string hosts_details(const Configuration& c) {
  if (c.nodes <= 1) return "";
  std::vector<std::string> names;
  for (const auto& h : c.hosts) {
    const bool named = h.is_object() && h.contains("hostname") && h["hostname"].is_string();
    names.push_back(named ? h["hostname"].get<std::string>() : "?");
  }
  return fmt::format("<details class=hosts><summary>{} hosts{}</summary><pre>{}</pre></details>", c.nodes,
                     names.empty() ? "" : ": " + escape(text::join(names, ", ")),
                     escape(c.hosts.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)));
}

std::string configuration_row(const Configuration& c) {
  const auto& p = c.pricing;
  const std::string price = p.usd_per_hour ? fmt::format("{}, {} (<a href=\"{}\">source</a>)", escape(p.how),
                                                         escape(p.date), escape(p.source))
                                           : "unpriced: " + escape(p.unpriced_reason);
  return fmt::format(
      "<tr id='config-{}'><td class=name>{}</td><td class=name>{}</td><td class=name>{}</td><td{}>{}</td>"
      "<td{}>{}</td>{}<td{}>{}</td><td class='name wide'>{}</td><td data-v={}>{}</td><td class=name><details>"
      "<summary>system info</summary><pre>{}</pre></details>{}</td></tr>",
      escape(c.key), breakable(c.key), escape(c.provider), escape(c.label), sort_value(c.vcpus),
      escape(number(c.vcpus)), sort_value(c.ocpus), escape(number(c.ocpus)), measured_cell(c),
      sort_value(p.usd_per_hour), escape(money(p.usd_per_hour)), price, c.runs.size(), c.runs.size(),
      escape(c.system.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)), hosts_details(c));
}

// "444 M points/s" over a small "408–480 M": a figure and its detail on two lines keep a wide
// table narrow. `text` is split at its first " (" or " [".
std::string two_lines(const std::string& text) {
  const auto at = std::min(text.find(" ("), text.find(" ["));
  if (at == std::string::npos) return escape(text);
  std::string detail = text.substr(at + 1);
  if (detail.starts_with("(") && detail.ends_with(")")) detail = detail.substr(1, detail.size() - 2);
  return fmt::format("{}<br><small>{}</small>", escape(text.substr(0, at)), escape(detail));
}

std::string range_cell(const results::Stats& s, const std::string& unit) {
  return fmt::format("<td{}>{}</td>", sort_value(s.median), two_lines(si_spread(s, unit)));
}

std::string tags(const MethodRow& row, std::size_t j) {
  std::string out;
  const std::string fast = speed_mark(row, j);
  const std::string cheap = cost_mark(row, j);
  if (fast == "fastest") out += " <span class=\"tag fast\">fastest</span>";
  if (!fast.empty() && fast != "fastest") out += " <span class=\"tag tie\">tie for fastest</span>";
  if (cheap == "cheapest") out += " <span class=\"tag cheap\">cheapest</span>";
  if (!cheap.empty() && cheap != "cheapest") out += " <span class=\"tag tie\">tie for cheapest</span>";
  return out;
}

std::string money_cells(const MethodRow& row, const Cell& cell, const ShownColumns& shown) {
  std::string out;
  const auto per_runs = cell.cost_per_run ? std::optional(*cell.cost_per_run * row.run_scale) : std::nullopt;
  if (shown.cost_per_run) out += fmt::format("<td{}>{}</td>", sort_value(cell.cost_per_run), escape(money(per_runs)));
  if (!row.metric) return out;
  if (shown.cost_per_unit) {
    out += fmt::format("<td{}>{}</td>", sort_value(cell.cost_per_unit), escape(money(cell.cost_per_unit)));
  }
  if (shown.units_per_usd) {
    out += fmt::format("<td{}>{}</td>", sort_value(cell.units_per_usd), escape(si(cell.units_per_usd)));
  }
  if (shown.per_vcpu) out += fmt::format("<td{}>{}</td>", sort_value(cell.per_vcpu), escape(si(cell.per_vcpu)));
  if (shown.per_ocpu) out += fmt::format("<td{}>{}</td>", sort_value(cell.per_ocpu), escape(si(cell.per_ocpu)));
  return out;
}

std::string ranking_row(const MethodRow& row, const FleetReport& report, std::size_t j, const ShownColumns& shown) {
  const Cell& cell = row.cells[j];
  const auto& key = report.configurations[j].key;
  const std::string note = disturbance_note(cell, report.settings.use_flagged);
  std::string out =
      fmt::format("<tr class='{}'><td class=name>{}{}</td><td class=name>{}{}</td><td data-v={}>{}/{}</td>{}",
                  cell.trials == 0 ? "na"
                  : cell.ok()      ? "ok"
                                   : "bad",
                  breakable(key), tags(row, j), escape(cell_status(cell)),
                  note.empty() ? "" : "<br><small class=flagged>⚑ " + escape(note) + "</small>", cell.succeeded,
                  cell.succeeded, cell.trials, shown.wall ? range_cell(cell.wall, "s") : "");
  if (row.metric && shown.metric) out += range_cell(cell.metric, row.metric->unit);
  out += money_cells(row, cell, shown);
  if (shown.speedup) {
    out += fmt::format("<td{}{}>{}</td>", sort_value(cell.speedup ? std::optional(cell.speedup->value) : std::nullopt),
                       cell.speedup && cell.speedup->tie && key != report.baseline ? " class=tied" : "",
                       two_lines(speedup_text(cell, key, report)));
  }
  return out + "</tr>";
}

// The headings of the columns `shown` keeps, past the figures every row has.
std::string optional_headings(const MethodRow& row, const FleetReport& report, const ShownColumns& shown) {
  std::string out;
  if (shown.cost_per_run) out += fmt::format("<th>$ per {}</th>", escape(row.runs_per));
  if (row.metric) {
    if (shown.cost_per_unit) out += fmt::format("<th>$ per {}</th>", escape(row.metric->per));
    if (shown.units_per_usd) out += fmt::format("<th>{} per $</th>", escape(row.metric->work_unit));
    if (shown.per_vcpu) out += fmt::format("<th>{} per vCPU</th>", escape(row.metric->unit));
    if (shown.per_ocpu) out += fmt::format("<th>{} per OCPU</th>", escape(row.metric->unit));
  }
  if (shown.speedup) {
    out += "<th>speedup vs " + breakable(report.baseline) + "<br><small>95% interval</small></th>";
  }
  return out;
}

}  // namespace

std::string scaling_table(const MethodRow& row, const Scaling& s, const FleetReport& report) {
  const bool rate = row.metric.has_value();
  std::string out = fmt::format(
      "<div class=scroll><table class='scaling sortable'><thead><tr><th>hosts</th><th "
      "class=name>configuration</th><th class=name>status</th><th>{}<br><small>median</small></th><th>speedup</th>"
      "<th>efficiency<br><small>{}</small></th><th>$ per {}</th></tr></thead><tbody>",
      escape(s.unit), escape(efficiency_formula(s)), escape(rate ? row.metric->per : row.runs_per));
  for (const auto& p : s.points) {
    const Cell& cell = row.cells[p.config];
    const auto cost = rate             ? p.cost_per_unit
                      : p.cost_per_run ? std::optional(*p.cost_per_run * row.run_scale)
                                       : std::nullopt;
    out += fmt::format(
        "<tr class='{}'><td data-v={}>{}</td><td class=name>{}</td><td class=name>{}</td><td{}>{}</td><td{}>{}</td>"
        "<td{}>{}</td><td{}>{}</td></tr>",
        cell.ok() ? "ok" : "bad", p.nodes, p.nodes, breakable(report.configurations[p.config].key),
        escape(cell_status(cell)), sort_value(p.throughput), escape(si(p.throughput, s.unit)), sort_value(p.speedup),
        escape(scaling_ratio_text(p.speedup)), sort_value(p.efficiency), escape(efficiency_text(p.efficiency)),
        sort_value(cost), escape(money(cost)));
  }
  return out + "</tbody></table></div>";
}

std::string configuration_table(const FleetReport& report) {
  std::string out =
      "<div class=scroll><table id=configurations class=sortable><thead><tr><th class=name>configuration</th><th "
      "class=name>provider</th><th class=name>label</th><th>vCPUs</th><th>OCPUs</th><th class=name>the runs "
      "had</th><th>$ per hour</th><th class=name>price</th><th>runs</th><th "
      "class=name>machine</th></tr></thead><tbody>";
  for (const auto& c : report.configurations) out += configuration_row(c);
  return out + "</tbody></table></div>";
}

std::string experiment_section(const FleetReport& report) {
  if (!report.experiment_total) return "";
  std::string out =
      "<h2>The cost of the experiment</h2><p>Each cloud instance from boot to the end of its upload, rounded as its "
      "provider bills, at the price of the capacity it ran on.</p><div class=scroll><table id=experiment "
      "class=sortable><thead><tr>";
  for (const auto& column : experiment_columns()) out += "<th>" + escape(column) + "</th>";
  out += "</tr></thead><tbody>";
  for (const auto& c : report.configurations) {
    if (!c.experiment) continue;
    out += "<tr>";
    const auto cells = experiment_cells(c);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      // The money columns sort by amount (data-v), not by their text.
      const std::optional<double> amount = i == 7   ? c.experiment->usd
                                           : i == 8 ? c.experiment->usd_on_demand
                                           : i == 9 ? c.experiment->usd_spot
                                                    : std::nullopt;
      out += amount ? fmt::format("<td data-v=\"{}\">{}</td>", *amount, escape(cells[i]))
                    : "<td>" + escape(cells[i]) + "</td>";
    }
    out += "</tr>";
  }
  return out + "</tbody></table></div><p><strong>The fleet:</strong> " +
         escape(experiment_total_text(*report.experiment_total)) + ".</p>";
}

std::string ranking_table(const MethodRow& row, const FleetReport& report) {
  const auto& configs = report.configurations;
  std::vector<std::size_t> order(configs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return relative_speed(row, row.cells[a]).value_or(-1) > relative_speed(row, row.cells[b]).value_or(-1);
  });
  const ShownColumns shown = shown_columns(row);
  std::string out = fmt::format(
      "<div class=scroll><table class='ranking sortable'><thead><tr><th class=name>configuration</th><th "
      "class=name>status</th><th>trials</th>{}{}{}</tr></thead><tbody>",
      shown.wall ? "<th>wall time<br><small>median, min–max</small></th>" : "",
      row.metric && shown.metric
          ? fmt::format("<th>{}<br><small>median, min–max</small></th>", escape(row.metric->unit))
          : "",
      optional_headings(row, report, shown));
  for (const std::size_t j : order) out += ranking_row(row, report, j, shown);
  return out + "</tbody></table></div>";
}

}  // namespace perfzero::fleet_report::html
