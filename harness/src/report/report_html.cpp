// The self-contained HTML page: everything inline, so it opens from a file, an e-mail or an
// artifact store with no network.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "report/html_text.hpp"
#include "report/report_writers.hpp"
#include "report/svg_charts.hpp"

namespace perfzero::report {

namespace {

using html::escape;

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1b1f24;max-width:1200px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d0d7de}
h3{font-size:15px;margin:22px 0 6px;font-family:ui-monospace,monospace}
table{border-collapse:collapse;margin:6px 0 10px}td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:right}
th{background:#f6f8fa}td.name,th.name{text-align:left}tr.bad td{background:#fdecea}tr.na td{color:#888}
.warn{background:#fff8c5;border:1px solid #d4a72c;padding:6px 12px;margin:10px 0}
.tag{font-size:11px;border-radius:8px;padding:1px 6px;margin-left:4px;color:#fff}
.fast{background:#1a7f37}.cheap{background:#8250df}
svg text{font:12px system-ui,sans-serif;fill:#1b1f24}svg .col{font-weight:600}
.cell.dark text{fill:#fff}.cell.bad text{fill:#a40e26}.cell.na text{fill:#777}
.bar{fill:#4a7dbf}.bar.partial{fill:#d89a9a}.whisker{stroke:#1b1f24;stroke-width:1.5}.trial{fill:#1b1f24;opacity:.6}.iqr{fill:#1b1f24;opacity:.35}
svg .bad{fill:#a40e26}svg .na{fill:#777}.axis{stroke:#555}.front{fill:none;stroke:#1a7f37;stroke-width:2;stroke-dasharray:5 3}
.point circle{fill:#4a7dbf}.point.on-front circle{fill:#1a7f37}.charts{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
details pre{max-height:360px;overflow:auto;background:#f6f8fa;padding:8px;text-align:left;font-size:12px}
)";

std::string configuration_rows(const Report& report) {
  std::string out;
  for (const auto& c : report.configurations) {
    const auto& p = c.pricing;
    const std::string price = p.usd_per_hour
                                  ? fmt::format("{} — {}, {} (<a href=\"{}\">source</a>)", money(p.usd_per_hour),
                                                escape(p.how), escape(p.date), escape(p.source))
                                  : "unpriced: " + escape(p.unpriced_reason);
    out += fmt::format(
        R"(<tr id="config-{}"><td class="name">{}</td><td class="name">{}</td><td class="name">{}</td><td>{}</td><td>{}</td>)"
        R"(<td class="name">{}</td>)"
        R"(<td>{}</td><td class="name"><details><summary>system info</summary><pre>{}</pre></details></td></tr>)",
        escape(c.key), escape(c.key), escape(c.provider), escape(c.label), escape(number(c.vcpus)),
        escape(number(c.ocpus)), price, c.runs.size(),
        escape(c.system.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)));
  }
  return out;
}

std::string ranking_table(const MethodRow& row, const Report& report) {
  const auto& configs = report.configurations;
  std::vector<std::size_t> order(configs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return svg::relative_speed(row, row.cells[a]).value_or(-1) > svg::relative_speed(row, row.cells[b]).value_or(-1);
  });
  const bool rate = row.metric.has_value();
  std::string out = fmt::format(
      "<table><tr><th class=name>configuration</th><th class=name>status</th><th>trials</th><th>wall time s "
      "(median, min–max)</th>{}<th>$ per run</th>{}<th>speedup</th></tr>",
      rate ? fmt::format("<th>{} (median, min–max)</th>", escape(row.metric->unit)) : "",
      rate ? fmt::format("<th>$ per {}</th><th>{} per $</th><th>per vCPU</th><th>per OCPU</th>",
                         escape(row.metric->per), escape(row.metric->work_unit))
           : "");
  for (const std::size_t j : order) {
    const Cell& cell = row.cells[j];
    const auto range = [](const results::Stats& s) {
      return s.median ? fmt::format("{} ({}–{})", number(s.median), number(s.min), number(s.max)) : std::string();
    };
    std::string tags;
    if (row.fastest == j) tags += "<span class='tag fast'>fastest</span>";
    if (row.cheapest == j) tags += "<span class='tag cheap'>cheapest</span>";
    out += fmt::format("<tr class='{}'><td class=name>{}{}</td><td class=name>{}</td><td>{}/{}</td><td>{}</td>",
                       cell.trials == 0 ? "na"
                       : cell.ok()      ? "ok"
                                        : "bad",
                       escape(configs[j].key), tags, escape(cell_status(cell)), cell.succeeded, cell.trials,
                       escape(range(cell.wall)));
    if (rate) out += fmt::format("<td>{}</td>", escape(range(cell.metric)));
    out += fmt::format("<td>{}</td>", escape(money(cell.cost_per_run)));
    if (rate) {
      out +=
          fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td>", escape(money(cell.cost_per_unit)),
                      escape(number(cell.units_per_usd)), escape(number(cell.per_vcpu)), escape(number(cell.per_ocpu)));
    }
    out += fmt::format("<td>{}</td></tr>", escape(speedup_text(cell, configs[j].key, report)));
  }
  return out + "</table>";
}

}  // namespace

void write_html(const Report& report, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>perfzero report</title>"
         "<meta name=viewport content='width=device-width,initial-scale=1'><style>"
      << kStyle << "</style></head><body>\n";
  out << fmt::format(
      "<h1>perfzero report</h1><p>{} run(s), {} trial(s), {} configuration(s), {} method(s). Prices "
      "from {}; generated {}.{}</p>\n",
      report.runs_read, report.trials_read, report.configurations.size(), report.methods.size(),
      escape(report.catalog_file.empty() ? "no catalog" : report.catalog_file), escape(report.generated_on),
      report.baseline.empty() ? "" : " Speedups against " + escape(report.baseline) + ".");
  if (!report.warnings.empty()) {
    out << "<div class=warn id=warnings><b>Warnings</b><ul>";
    for (const auto& w : report.warnings) out << "<li>" << escape(w) << "</li>";
    out << "</ul></div>\n";
  }
  out << "<h2>Methods × configurations</h2><p>Each cell: the main metric's median (or the wall time); darker is "
         "faster relative to the method's fastest configuration; red: not every trial succeeded.</p>\n"
      << svg::heatmap(report) << "\n";
  out << "<h2>Configurations</h2><table id=configurations><tr><th class=name>configuration</th><th "
         "class=name>provider</th><th class=name>label</th><th>vCPUs</th><th>OCPUs</th><th class=name>price per "
         "hour</th><th>runs</th><th "
         "class=name>machine</th></tr>"
      << configuration_rows(report) << "</table>\n<h2>Methods</h2>\n";
  for (const auto& row : report.methods) {
    out << fmt::format("<section class=method><h3>{}</h3><p>{}</p>", escape(row.name),
                       row.metric
                           ? fmt::format("Ranked by {} ({}); cost per unit of work quoted per {}.",
                                         escape(row.metric->name), escape(row.metric->unit), escape(row.metric->per))
                           : "No rate metric: ranked by wall time; cost is per run.");
    out << ranking_table(row, report) << "<div class=charts>" << svg::bars(row, report.configurations)
        << svg::cost_time_scatter(row, report.configurations) << "</div></section>\n";
  }
  out << "</body></html>\n";
}

}  // namespace perfzero::report
