// The self-contained HTML page: everything inline (style, SVG, one small script that sorts tables),
// so it opens from a file, an e-mail or an artifact store with no network. A Content-Security-Policy
// forbids the page any other source, so nothing can be fetched even by mistake.
#include <fmt/format.h>

#include "fleet_report/html_parts.hpp"
#include "fleet_report/html_text.hpp"
#include "fleet_report/report_writers.hpp"
#include "fleet_report/scaling.hpp"

namespace perfzero::fleet_report {

namespace {

using html::escape;

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;padding:0 16px;color:#1b1f24;max-width:1280px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d0d7de}
h3{font-size:15px;margin:26px 0 6px;font-family:ui-monospace,monospace;overflow-wrap:anywhere}
p.rules{color:#57606a;font-size:13px}.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:6px 0 10px}td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:right;vertical-align:top}
th{background:#f6f8fa;font-weight:600}td.name,th.name{text-align:left}tr.bad td{background:#fdecea}tr.na td{color:#888}
table.sortable thead th{cursor:pointer;user-select:none}table.sortable thead th:hover{background:#eaeef2}
table.sortable thead th::after{content:"\00a0\2195";color:#8c959f;font-weight:400}
table.sortable thead th[aria-sort=ascending]::after{content:"\00a0\25B2";color:#1b1f24}
table.sortable thead th[aria-sort=descending]::after{content:"\00a0\25BC";color:#1b1f24}
td{white-space:nowrap}td.name{white-space:normal;min-width:8em}td.wide{white-space:normal;min-width:16em}
table.heatmap th.col{min-width:7em;max-width:10em;vertical-align:bottom;text-align:center;font-size:13px}
table.heatmap th.name{position:sticky;left:0;z-index:1;font-family:ui-monospace,monospace;font-size:12px;font-weight:500;min-width:14em;max-width:28em}
table.heatmap th.corner{font-family:inherit;color:#57606a}
td.heat{text-align:center;white-space:nowrap;font-size:13px;min-width:7em}td.heat.dark{color:#fff}
td.heat.bad{background:#f8d0cc;color:#a40e26}td.heat.na{background:#f3f4f6;color:#777}.star{font-weight:700}
td.mismatch{background:#fff8c5}td.tied{color:#57606a}small.flagged{color:#9a6700}
.warn{background:#fff8c5;border:1px solid #d4a72c;padding:6px 12px;margin:10px 0}
.tag{font-size:11px;border-radius:8px;padding:1px 6px;margin-left:2px;color:#fff;white-space:nowrap}
.fast{background:#1a7f37}.cheap{background:#8250df}.tie{background:#6e7781}.front-tag{background:#1a7f37}
.verdict{margin:4px 0}
svg{max-width:100%;height:auto}svg text{font:12px system-ui,sans-serif;fill:#1b1f24}svg text.tick{font-size:11px;fill:#57606a}
svg .grid{stroke:#eaeef2}svg .axis{stroke:#57606a}svg text.axis-label{font-size:12px;fill:#57606a}
.bar{fill:#4a7dbf}.bar.partial{fill:#d89a9a}.whisker{stroke:#1b1f24;stroke-width:1.5}.trial{fill:#1b1f24;opacity:.6}.iqr{fill:#1b1f24;opacity:.35}
svg .bad{fill:#a40e26}svg .na{fill:#777}.front{fill:none;stroke:#1a7f37;stroke-width:2;stroke-dasharray:6 3}
.point circle{fill:#4a7dbf}.point.on-front circle{fill:#1a7f37}.point rect.num{fill:#fff;stroke:#8c959f}
.point text.num{font-size:11px;font-weight:600}.point .leader{stroke:#8c959f}
.charts{display:flex;flex-wrap:wrap;gap:16px 32px;align-items:flex-start}
figure.scatter-figure{margin:0;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:flex-start}
table.legend{font-size:13px}table.legend tr.on-front td:first-child{color:#1a7f37;font-weight:700}
h4{font-size:14px;margin:14px 0 4px;overflow-wrap:anywhere}
svg .ideal{stroke:#8c959f;stroke-width:1.5;stroke-dasharray:6 4}svg .measured{fill:none;stroke:#4a7dbf;stroke-width:2}
svg circle.node{fill:#4a7dbf}svg circle.node.bad{fill:#a40e26}
details pre{max-height:360px;overflow:auto;background:#f6f8fa;padding:8px;text-align:left;font-size:12px}
)";

// Click (or Enter on) a header to sort by that column: by each cell's data-v when it has one (the
// exact figure), else by its text; cells without a figure stay last. #sort=TABLE_ID:COLUMN in the
// address sorts that table once the page has loaded (a link to a sorted view).
constexpr const char* kScript = R"(
(function(){
function sortBy(t,i){var hs=t.tHead.rows[0].cells,b=t.tBodies[0],asc=hs[i].getAttribute('aria-sort')!=='ascending';
for(var k=0;k<hs.length;k++)hs[k].removeAttribute('aria-sort');hs[i].setAttribute('aria-sort',asc?'ascending':'descending');
function key(r){var c=r.cells[i];if(!c)return null;var v=c.getAttribute('data-v');if(v!==null&&v!=='')return parseFloat(v);
var s=c.textContent.trim().toLowerCase();return s===''?null:s;}
var rows=Array.prototype.slice.call(b.rows).map(function(r,n){return [key(r),n,r];});
rows.sort(function(x,y){var a=x[0],c=y[0];if(a===null||c===null)return a===c?x[1]-y[1]:(a===null?1:-1);
var d=(typeof a==='number'&&typeof c==='number')?a-c:String(a).localeCompare(String(c));return (asc?d:-d)||x[1]-y[1];});
rows.forEach(function(r){b.appendChild(r[2]);});}
var ts=document.querySelectorAll('table.sortable');
Array.prototype.forEach.call(ts,function(t){Array.prototype.forEach.call(t.tHead.rows[0].cells,function(h,i){
h.tabIndex=0;h.title='sort by this column';h.addEventListener('click',function(){sortBy(t,i);});
h.addEventListener('keydown',function(e){if(e.key==='Enter'||e.key===' '){e.preventDefault();sortBy(t,i);}});});});
var m=/^#sort=([\w-]+):(\d+)$/.exec(location.hash),t=m&&document.getElementById(m[1]);
if(t&&t.tHead&&t.tHead.rows[0].cells[+m[2]])sortBy(t,+m[2]);
})();
)";

void write_html_rules(const FleetReport& report, std::ostream& out) {
  const auto& s = report.settings;
  int disturbed = 0;
  for (const auto& row : report.methods) {
    for (const auto& cell : row.cells) disturbed += s.use_flagged ? cell.flagged_kept : cell.left_out;
  }
  out << fmt::format(
      "<p class=rules>Fastest, cheapest and speedups carry the {:g}% bootstrap interval of the ratio of medians "
      "({} resamplings, seed {}; at least {} trials each). A configuration is named only when its interval against "
      "every other excludes 1 and the change is at least {:g}% (<code>--min_change</code>); otherwise the report "
      "says <i>tie</i>. Trials of one run cannot tell the machine from the moment it ran: against a configuration "
      "measured in one run, the interval is widened by the between-run noise (<code>--run_noise</code>). {}</p>\n",
      s.confidence * 100, s.resamples, s.seed, s.min_trials, s.min_change * 100,
      s.use_flagged
          ? fmt::format("Disturbed trials are <b>kept</b> in the figures (<code>--use_flagged</code>): {}.", disturbed)
      : disturbed > 0
          ? fmt::format(
                "{} disturbed trial(s) (host busy, GPU or CPU throttled, harness stalled) are left out of every "
                "figure, marked ⚑ (<code>--use_flagged</code> keeps them).",
                disturbed)
          : std::string());
}

void write_method(const FleetReport& report, const MethodRow& row, std::ostream& out) {
  out << fmt::format("<section class=method><h3>{}</h3><p>{}</p>", html::breakable(row.name),
                     row.metric
                         ? fmt::format("Ranked by {} ({}); cost per unit of work quoted per {}.",
                                       escape(row.metric->name), escape(row.metric->unit), escape(row.metric->per))
                         : "No rate metric: ranked by wall time; cost is per run.");
  const auto verdict = [&](const char* what, const std::string& text) {
    if (!text.empty()) out << fmt::format("<p class=verdict><b>{}:</b> {}</p>", what, escape(text));
  };
  verdict("Fastest", fastest_summary(row, report));
  verdict("Cheapest", cheapest_summary(row, report));
  out << html::ranking_table(row, report) << "<div class=charts>" << svg::bars(row, report)
      << svg::cost_time_scatter(row, report) << "</div>";
  for (const auto& s : row.scaling) {
    out << fmt::format("<h4>Scaling on {}</h4><p>Efficiency at N hosts: {}{}.</p>", html::breakable(s.name),
                       escape(efficiency_formula(s)),
                       s.base_nodes == 1
                           ? ""
                           : fmt::format(", relative to {} hosts (the method did not run on one host)", s.base_nodes))
        << "<div class=charts>" << html::scaling_table(row, s, report) << svg::scaling_chart(row, s) << "</div>";
  }
  out << "</section>\n";
}

}  // namespace

void write_html(const FleetReport& report, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>perfzero report</title>"
         "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'\">"
         "<meta name=viewport content='width=device-width,initial-scale=1'><style>"
      << kStyle << "</style></head><body>\n";
  out << fmt::format(
      "<h1>perfzero report</h1><p>{} run(s), {} trial(s), {} configuration(s), {} method(s). Prices "
      "from {}; generated {}.{}</p>\n",
      report.runs_read, report.trials_read, report.configurations.size(), report.methods.size(),
      escape(report.catalog_file.empty() ? "no catalog" : report.catalog_file), escape(report.generated_on),
      report.baseline.empty() ? "" : " Speedups against " + escape(report.baseline) + ".");
  write_html_rules(report, out);
  if (!report.warnings.empty()) {
    out << "<div class=warn id=warnings><b>Warnings</b><ul>";
    for (const auto& w : report.warnings) out << "<li>" << escape(w) << "</li>";
    out << "</ul></div>\n";
  }
  out << "<h2>Methods × configurations</h2><p>Each cell: the main metric's median (or the wall time); darker is "
         "faster relative to the method's leader; ★ the fastest, ≈ a tie for fastest; ⚑ some trials were "
         "disturbed; red: not every trial succeeded.</p>\n"
      << html::heatmap(report) << "\n";
  out << "<h2>Configurations</h2>" << html::configuration_table(report) << "\n"
      << html::experiment_section(report) << "\n<h2>Methods</h2>\n";
  for (const auto& row : report.methods) write_method(report, row, out);
  out << "<script id=sort-tables>" << kScript << "</script>\n</body></html>\n";
}

}  // namespace perfzero::fleet_report
