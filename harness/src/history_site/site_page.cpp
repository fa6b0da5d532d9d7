#include "history_site/site_page.hpp"

#include <fmt/format.h>

#include "common/utc_time.hpp"
#include "fleet_report/html_text.hpp"

namespace perfzero::history_site {

namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1b1f24;max-width:1200px}
h1{font-size:22px;margin:0 0 6px}h2{font-size:17px;margin:26px 0 8px}
a{color:#0b5cad;text-decoration:none}a:hover{text-decoration:underline}
table{border-collapse:collapse;margin:8px 0 16px}th,td{padding:3px 10px;border-bottom:1px solid #e3e6ea;text-align:left;vertical-align:middle}
th{background:#f4f6f8;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.meta{color:#57606a}.warn{background:#fff8e5;border:1px solid #f0d58c;padding:6px 12px;margin:10px 0}
.slower{color:#b3261e;font-weight:600}.faster{color:#1a7f37;font-weight:600}.changed{color:#8250df;font-weight:600}
svg .grid{stroke:#e3e6ea}svg text{font:11px system-ui,sans-serif;fill:#57606a}svg .tick{text-anchor:end}
svg .date{text-anchor:start}svg .date.end{text-anchor:end}
svg .t{fill:#0b5cad;fill-opacity:.55}svg .td{fill:none;stroke:#8c959f}
svg .median{fill:none;stroke:#1b1f24;stroke-width:1.5}svg .cp{stroke:#b3261e;stroke-dasharray:4 3}
svg .cpl{fill:#b3261e;font-weight:600}svg.spark polyline{fill:none;stroke:#0b5cad;stroke-width:1.2}
.legend span{margin-right:16px}[hidden]{display:none!important}
svg.chart,svg.overview{max-width:100%;height:auto}.scroll{overflow-x:auto}
svg.overview text{font-size:12px}svg .date.mid{text-anchor:middle}svg.overview .ml{fill:none;stroke-width:1.6}svg .cpm line{stroke-dasharray:3 3;stroke-width:1}
section.method{border-top:2px solid #e3e6ea;margin-top:22px}section.method h2{margin-top:12px}
details{margin:4px 0 12px}summary{cursor:pointer;color:#0b5cad}.toc a{margin-right:12px;white-space:nowrap}
#filter{font:inherit;padding:5px 8px;width:min(420px,100%);border:1px solid #8c959f;border-radius:4px;margin:6px 0}
@media (max-width:760px){body{margin:10px}th,td{padding:2px 5px}.wide{display:none}}
)";

}  // namespace

std::string page(const std::string& title, const std::string& body, int depth, const std::string& script) {
  std::string up;
  for (int i = 0; i < depth; ++i) up += "../";
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{0}</title>"
      "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'{4}\">"
      "<meta name=viewport content='width=device-width,initial-scale=1'><style>{1}</style></head><body>\n"
      "{2}<p class=meta>{3}</p>{5}</body></html>\n",
      fleet_report::html::escape(title), kStyle, body,
      depth > 0 ? fmt::format("<a href='{}index.html'>All series</a>", up) : "Made by perfzero history site.",
      script.empty() ? "" : "; script-src 'unsafe-inline'", script.empty() ? "" : "<script>" + script + "</script>");
}

std::string date_of(double epoch_seconds) { return text::utc_time(epoch_seconds).substr(0, 10); }

}  // namespace perfzero::history_site
