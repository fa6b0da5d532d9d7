// What each page of the history site says (site_writer.hpp lists them): a run's page, a series'
// page and the index, from what SiteWriter gathered while it read the runs.
#include <cstdint>
#include <optional>

#include <fmt/format.h>

#include "common/utc_time.hpp"
#include "compare/compare_runs.hpp"
#include "fleet_report/figure_text.hpp"
#include "fleet_report/html_text.hpp"
#include "history_site/site_html.hpp"
#include "history_site/site_page.hpp"
#include "history_site/site_writer.hpp"
#include "results/statistics.hpp"

namespace perfzero::history_site {

namespace {

using fleet_report::html::escape;

// The run's heading and what the history stored of it, each fact only when it has one.
std::string run_facts_html(const history::RunRow& row) {
  std::string body = fmt::format("<h1>Run {}</h1><table>", escape(row.execution_id));
  const auto fact = [&](const char* name, const std::string& value) {
    if (!value.empty()) body += fmt::format("<tr><th>{}</th><td>{}</td></tr>", name, escape(value));
  };
  fact("label", row.execution_label);
  fact("system", row.system_name);
  fact("image", row.image);
  fact("started", text::utc_time(row.execution_timestamp));
  fact("commit", row.commit);
  fact("branch", row.branch);
  fact("build label", row.build_label);
  fact("status", row.status);
  return body + "</table>";
}

// Each method and metric of the run: its median over the undisturbed trials, and how they spread.
std::string run_results_html(const results::Run& run) {
  std::string body =
      "<h2>Results</h2><table><tr><th>method</th><th>metric</th><th>median</th><th>trials</th>"
      "<th>disturbed</th><th>cv</th></tr>";
  for (const auto& c : compare::collect_values(run)) {
    for (const auto& s : c.series) {
      const auto side = compare::side_of(c, s, false);
      const auto stats = results::compute_stats(side.values);
      body += fmt::format(
          "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>",
          escape(c.case_name), escape(s.metric), escape(value_text(stats.median, s.unit)), side.values.size(),
          side.disturbed, stats.cv ? fmt::format("{:.1f} %", *stats.cv * 100) : "");
    }
  }
  return body + "</table>";
}

// `perfzero compare`'s judgement of the run against the one before it; `before_html` names that run
// (a link where its page exists).
std::string comparison_html(const results::Run& before, const results::Run& run, const std::string& before_html) {
  compare::Settings settings;
  settings.resamples = 200;  // each row's interval: enough for a page that is one of hundreds
  const auto report = compare::compare_runs(before, run, settings);
  std::string body = fmt::format(
      "<p>Against {} of the same configuration, as <code>perfzero compare</code> judges two runs (Mann-Whitney U "
      "at {:g}, a change of at least {:g} %, disturbed trials left out).</p>",
      before_html, settings.alpha, settings.min_change * 100);
  body +=
      "<table><tr><th>method</th><th>metric</th><th>before</th><th>after</th><th>change</th><th>interval</th>"
      "<th>verdict</th><th>why</th></tr>";
  for (const auto& m : report.rows) {
    body += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td>"
        "<td>{}</td><td>{}</td></tr>",
        escape(m.case_name), escape(m.metric), escape(value_text(m.baseline.median, m.unit)),
        escape(value_text(m.candidate.median, m.unit)), m.change ? percent(*m.change) : "",
        m.ci_low && m.ci_high ? percent(*m.ci_low) + " to " + percent(*m.ci_high) : "", verdict_html(m.verdict),
        escape(m.reason));
  }
  return body + "</table>";
}

// The series' name, what it is measured on, and the legend of its chart. `first`: its first point
// drawn.
std::string series_heading_html(const history::Series& s, std::size_t first) {
  const auto& points = s.points;
  std::string body = fmt::format(
      "<h1>{} · {}</h1><p class=meta>label {} · {} · unit {} ({} is better) · {} runs{}</p>", escape(s.case_name),
      escape(s.metric), escape(s.label), escape(configuration_text(s)), escape(s.unit.empty() ? "none" : s.unit),
      escape(std::string(s.direction == Direction::higher_is_better  ? "higher"
                         : s.direction == Direction::lower_is_better ? "lower"
                                                                     : "neither")),
      points.size(), first > 0 ? fmt::format(", the last {} drawn", points.size() - first) : std::string());
  body +=
      "<p class=legend><span>● a trial</span><span>○ a disturbed trial (left out of the median)</span>"
      "<span>— each run's median</span><span style='color:#b3261e'>┆ a change point, with its commit</span></p>";
  return body;
}

// The change points among the drawn points, by position from `first`, each labelled with its commit.
std::vector<std::pair<std::size_t, std::string>> change_marks(const SeriesWithChanges& series, std::size_t first) {
  std::vector<std::pair<std::size_t, std::string>> marks;
  for (const auto& c : series.changes) {
    if (c.index < first) continue;
    marks.emplace_back(c.index - first,
                       fmt::format("{} {}", short_commit(series.series.points[c.index].commit), percent(c.change)));
  }
  return marks;
}

}  // namespace

const std::string* SiteWriter::written_run_page(const std::string& execution_id) const {
  if (written_runs_.count(execution_id) == 0) return nullptr;
  const auto page = run_pages_.find(execution_id);
  return page != run_pages_.end() ? &page->second : nullptr;
}

void SiteWriter::write_run_page(const history::RunRow& row, const results::Run& run, const Previous* previous) {
  std::string body = run_facts_html(row) + run_results_html(run);
  body += "<h2 id=compare>Compared with the previous run</h2>";
  if (previous == nullptr) {
    body += "<p>The first run of its configuration (label, system, image) in this history: nothing to compare.</p>";
  } else if (!previous->run) {
    body += fmt::format("<p>The previous run of its configuration, {}, could not be read (the index says why).</p>",
                        escape(previous->execution_id));
  } else {
    const std::string* page = written_run_page(previous->execution_id);
    body +=
        comparison_html(*previous->run, run,
                        page != nullptr ? fmt::format("<a href='{}.html'>{}</a>", *page, escape(previous->execution_id))
                                        : escape(previous->execution_id));
  }
  write(fmt::format("runs/{}.html", run_pages_.at(row.execution_id)), page("run " + row.execution_id, body, 1));
  written_runs_.insert(row.execution_id);
}

std::vector<ChartRun> SiteWriter::chart_runs(const history::Series& s, std::size_t first) const {
  std::vector<ChartRun> runs;
  for (std::size_t i = first; i < s.points.size(); ++i) {
    const auto& point = s.points[i];
    ChartRun& r = runs.emplace_back();
    r.median = point.value;
    r.commit = point.commit;
    r.date = date_of(point.execution_timestamp);
    if (const auto d = drawn_.find(point.execution_id); d != drawn_.end()) {
      if (const auto t = d->second.trials.find({s.case_name, s.metric}); t != d->second.trials.end()) {
        r.trials = t->second.first;
        r.disturbed = t->second.second;
      }
    }
  }
  return runs;
}

std::string SiteWriter::change_points_html(const SeriesWithChanges& series) const {
  if (series.changes.empty()) return "<p>None.</p>";
  std::string body =
      "<table><tr><th>date</th><th>commit</th><th>run</th><th>runs before / after</th><th>change</th></tr>";
  for (auto it = series.changes.rbegin(); it != series.changes.rend(); ++it) {
    const auto& p = series.series.points[it->index];
    const std::string* page = written_run_page(p.execution_id);
    body += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td>{}</td></tr>",
                        date_of(p.execution_timestamp), escape(short_commit(p.commit)),
                        page != nullptr ? fmt::format("<a href='../runs/{}.html'>{}</a>", *page, escape(p.execution_id))
                                        : escape(p.execution_id),
                        fmt::format("{} / {}", it->before, it->after), change_html(*it));
  }
  return body + "</table>";
}

std::string SiteWriter::series_runs_html(const history::Series& s, std::size_t first) const {
  std::string body =
      "<h2>Runs</h2><table><tr><th>date</th><th>run</th><th>commit</th><th>median</th><th>trials</th>"
      "<th></th></tr>";
  for (std::size_t i = s.points.size(); i-- > first;) {
    const auto& p = s.points[i];
    const std::string& number = run_pages_.at(p.execution_id);
    const bool written = written_runs_.count(p.execution_id) > 0;  // not when its document was damaged
    body += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td>{}</td></tr>",
                        text::utc_time(p.execution_timestamp),
                        written ? fmt::format("<a href='../runs/{}.html'>{}</a>", number, escape(p.execution_id))
                                : escape(p.execution_id),
                        escape(short_commit(p.commit)), escape(value_text(p.value, s.unit)), p.trials,
                        written && i > 0
                            ? fmt::format("<a href='../runs/{}.html#compare'>compare with the previous run</a>", number)
                            : "");
  }
  return body + "</table>";
}

void SiteWriter::write_series_page(std::size_t k) {
  const auto& s = series_[k].series;
  const auto& points = s.points;
  // Its points among its configuration's drawn runs: the newest ones (none, when it stopped earlier).
  std::size_t first = points.size();
  while (first > 0 && run_pages_.count(points[first - 1].execution_id) > 0) --first;
  const std::vector<ChartRun> runs = chart_runs(s, first);
  std::string body = series_heading_html(s, first);
  body += runs.empty() ? fmt::format(
                             "<p>None of its configuration's last {} runs has this metric: it stopped "
                             "earlier (the index's sparkline shows its last runs).</p>",
                             options_.last)
                       : series_chart(runs, change_marks(series_[k], first), s.unit);
  body += "<h2>Change points</h2>" + change_points_html(series_[k]);
  body += series_runs_html(s, first);
  write(fmt::format("series/{}.html", series_pages_[k]), page(s.case_name + " · " + s.metric, body, 1));
}

}  // namespace perfzero::history_site
