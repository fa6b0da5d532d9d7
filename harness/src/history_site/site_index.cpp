// The history site's index (docs/history.md, "The history site"): a section per method with its main
// metric plotted for each configuration and label, the change points marked with their commits, its
// other metrics and counters a click away, and a filter box. Without JavaScript it is the same list,
// every section shown and the box hidden.
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "fleet_report/html_text.hpp"
#include "history_site/main_metric.hpp"
#include "history_site/site_html.hpp"
#include "history_site/site_overview_svg.hpp"
#include "history_site/site_page.hpp"
#include "history_site/site_writer.hpp"
#include "results/counter_metrics.hpp"

namespace perfzero::history_site {

namespace {

using fleet_report::html::escape;

// Shows the box (hidden for a reader without JavaScript, where it could do nothing) and keeps the
// sections (and their entries in the list of methods) whose text holds every word typed; a link
// can carry the words (index.html?filter=storage+nightly).
constexpr const char* kFilterScript = R"(
(function(){var box=document.getElementById('filter'),out=document.getElementById('shown'),
secs=[].slice.call(document.querySelectorAll('section.method')),toc=[].slice.call(document.querySelectorAll('.toc a'));
box.hidden=false;var q=new URLSearchParams(location.search).get('filter');if(q)box.value=q;
function apply(){var words=box.value.toLowerCase().split(/\s+/).filter(function(w){return w;}),n=0;
secs.forEach(function(s,i){var t=s.getAttribute('data-find'),ok=words.every(function(w){return t.indexOf(w)>=0;});
s.hidden=!ok;if(toc[i])toc[i].hidden=!ok;if(ok)n++;});
out.textContent=words.length?n+' of '+secs.length+' methods':'';}
box.addEventListener('input',apply);apply();})();
)";

// The drawn points of a series on the index: its newest ones.
constexpr std::size_t kIndexPoints = 200;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string latest_value_html(const history::Series& s) {
  return escape(value_text(s.points.empty() ? std::nullopt : std::optional<double>(s.points.back().value), s.unit));
}

std::string latest_change_html(const SeriesWithChanges& series) {
  if (series.changes.empty()) return "none";
  const auto& c = series.changes.back();
  const auto& at = series.series.points[c.index];
  return fmt::format("{} at {} ({})", change_html(c), escape(short_commit(at.commit)), date_of(at.execution_timestamp));
}

std::string direction_words(Direction d) {
  return d == Direction::higher_is_better  ? ", higher is better"
         : d == Direction::lower_is_better ? ", lower is better"
                                           : "";
}

// The series' newest points over time, its change points among them labelled with their commits.
OverviewLine line_of(const SeriesWithChanges& series) {
  const auto& points = series.series.points;
  const std::size_t first = points.size() > kIndexPoints ? points.size() - kIndexPoints : 0;
  OverviewLine line;
  for (std::size_t i = first; i < points.size(); ++i)
    line.points.emplace_back(points[i].execution_timestamp, points[i].value);
  for (const auto& c : series.changes) {
    if (c.index >= first) {
      line.changes.emplace_back(
          c.index - first, fmt::format("{} {}", short_commit(points[c.index].commit).substr(0, 7), percent(c.change)));
    }
  }
  return line;
}

// A series' sparkline: its newest 100 points, the change points among them marked.
std::string spark_of(const SeriesWithChanges& series) {
  const auto& points = series.series.points;
  const std::size_t first = points.size() > 100 ? points.size() - 100 : 0;
  std::vector<double> values;
  for (std::size_t i = first; i < points.size(); ++i) values.push_back(points[i].value);
  std::vector<std::size_t> marks;
  for (const auto& c : series.changes) {
    if (c.index >= first) marks.push_back(c.index - first);
  }
  return sparkline(values, marks);
}

std::string series_link(const std::string& page_name, const history::Series& s) {
  return fmt::format("<a href='series/{}.html'>{}</a>", page_name, escape(s.metric));
}

// The main metric of each configuration and label: the chart's legend, with each series' figures.
std::string main_table_html(const std::vector<const SeriesWithChanges*>& main, const std::vector<std::string>& pages) {
  std::string body =
      "<div class=scroll><table><tr><th></th><th>metric</th><th>label</th><th>configuration</th><th>runs</th>"
      "<th>latest</th><th>latest change</th></tr>";
  for (std::size_t k = 0; k < main.size(); ++k) {
    const auto& s = main[k]->series;
    body += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td>{}</td></tr>",
        line_swatch(k), series_link(pages[k], s), escape(s.label), escape(configuration_text(s)), s.points.size(),
        latest_value_html(s), latest_change_html(*main[k]));
  }
  return body + "</table></div>";
}

// The other metrics or the counters of a method, each series a row with its sparkline.
std::string others_table_html(const std::vector<const SeriesWithChanges*>& rows,
                              const std::vector<std::string>& pages) {
  std::string body =
      "<div class=scroll><table><tr><th>metric</th><th>label</th><th>configuration</th><th>runs</th><th>latest</th>"
      "<th class=wide>trend</th><th>latest change</th></tr>";
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto& s = rows[k]->series;
    body += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=wide>{}</td>"
        "<td>{}</td></tr>",
        series_link(pages[k], s), escape(s.label), escape(configuration_text(s)), s.points.size(), latest_value_html(s),
        spark_of(*rows[k]), latest_change_html(*rows[k]));
  }
  return body + "</table></div>";
}

// The index's list of cost pages, newest date first; what it says when there are none.
std::string cost_dates_html(const SiteOptions& options,
                            const std::vector<std::pair<std::string, std::size_t>>& cost_pages) {
  if (!options.cost_since) return "<p>Not made (<code>--cost_days 0</code>).</p>";
  if (cost_pages.empty()) return "<p>No run in the dates it covers.</p>";
  std::string body = fmt::format(
      "<p class=meta><code>perfzero report</code> of each date's runs: speed and price per "
      "configuration, prices from {}.</p><table><tr><th>date</th><th>runs</th></tr>",
      escape(options.catalog_file.empty() ? "no catalog" : options.catalog_file));
  for (auto it = cost_pages.rbegin(); it != cost_pages.rend(); ++it) {
    body += fmt::format("<tr><td><a href='cost/{0}.html'>{0}</a></td><td class=n>{1}</td></tr>", it->first, it->second);
  }
  return body + "</table>";
}

}  // namespace

std::string SiteWriter::method_section_html(const std::string& method, const std::vector<std::size_t>& members,
                                            std::size_t number) const {
  std::vector<const history::Series*> all;
  std::string find = lower(method);
  for (const std::size_t k : members) {
    const auto& s = series_[k].series;
    all.push_back(&s);
    for (const std::string* part : {&s.metric, &s.label, &s.system_name, &s.image}) {
      find += ' ';
      find += lower(*part);
    }
  }
  const MainMetric chosen = main_metric(all);
  std::vector<const SeriesWithChanges*> main, others, counters;
  std::vector<std::string> main_pages, other_pages, counter_pages;
  std::vector<OverviewLine> lines;
  for (const std::size_t k : members) {
    const auto& s = series_[k].series;
    if (s.metric == chosen.metric) {
      main.push_back(&series_[k]);
      main_pages.push_back(series_pages_[k]);
      lines.push_back(line_of(series_[k]));
    } else {
      const bool counter = results::is_counter_metric(s.metric);
      (counter ? counters : others).push_back(&series_[k]);
      (counter ? counter_pages : other_pages).push_back(series_pages_[k]);
    }
  }
  const auto& first = main.front()->series;
  std::string body = fmt::format(
      "<section class=method id=m{} data-find='{}'><h2>{}</h2><p class=meta>Main metric <b>{}</b> ({}{}): {}. "
      "{} configuration(s) and label(s).</p>",
      number, escape(find), escape(method), escape(chosen.metric), escape(first.unit.empty() ? "no unit" : first.unit),
      direction_words(first.direction), escape(chosen.why), main.size());
  body += "<div class=scroll>" + overview_chart(lines, first.unit) + "</div>" + main_table_html(main, main_pages);
  if (!others.empty() || !counters.empty()) {
    body += fmt::format("<details><summary>{} other metric series and {} counter series</summary>", others.size(),
                        counters.size());
    if (!others.empty()) body += "<h3>Other metrics</h3>" + others_table_html(others, other_pages);
    if (!counters.empty()) body += "<h3>Counters</h3>" + others_table_html(counters, counter_pages);
    body += "</details>";
  }
  return body + "</section>";
}

void SiteWriter::write_index() {
  std::string body = "<h1>perfzero history</h1>";
  body += fmt::format(
      "<p class=meta>{} run(s) and {} series from {}; generated {}. Change points as <code>perfzero history "
      "changes</code> finds them: E-Divisive means, each kept at Student's t p &lt; {:g}{}.</p>",
      runs_in_history_, series_.size(), escape(options_.source), escape(options_.generated),
      options_.change_points.max_pvalue,
      options_.change_points.min_magnitude > 0
          ? fmt::format(" and a change of at least {:g} %", options_.change_points.min_magnitude * 100)
          : std::string());
  if (!problems_.empty()) {
    body += "<div class=warn><b>Runs that could not be read</b><ul>";
    for (const auto& p : problems_) body += "<li>" + escape(p) + "</li>";
    body += "</ul></div>";
  }
  if (series_.empty() && options_.left_out.empty()) {
    body += "<p>No series: the history holds no run with a succeeded trial.</p>";
  } else if (series_.empty()) {
    body += "<p>No series: " + escape(options_.left_out) + ".</p>";
  } else if (!options_.left_out.empty()) {
    body += "<p class=warn>" + escape(options_.left_out) + ".</p>";
  }
  std::map<std::string, std::vector<std::size_t>> methods;
  for (std::size_t k = 0; k < series_.size(); ++k) methods[series_[k].series.case_name].push_back(k);
  if (!methods.empty()) {
    body += fmt::format(
        "<h2>Methods</h2><p><input type=search id=filter hidden placeholder='Filter by method, metric, label or "
        "system' aria-label='Filter the methods'> <span id=shown class=meta></span></p><p class=toc>");
    std::size_t number = 0;
    for (const auto& [method, members] : methods)
      body += fmt::format("<a href='#m{}'>{}</a> ", ++number, escape(method));
    body += "</p>";
    number = 0;
    for (const auto& [method, members] : methods) body += method_section_html(method, members, ++number);
  }
  body += "<h2>Cost per date</h2>" + cost_dates_html(options_, cost_pages_);
  write("index.html", page("perfzero history", body, 0, kFilterScript));
}

}  // namespace perfzero::history_site
