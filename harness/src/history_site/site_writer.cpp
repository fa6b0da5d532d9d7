#include "history_site/site_writer.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/utc_time.hpp"
#include "compare/compare_runs.hpp"
#include "fleet_report/figure_text.hpp"
#include "fleet_report/html_text.hpp"
#include "fleet_report/report_writers.hpp"
#include "history_site/site_page.hpp"
#include "results/statistics.hpp"

namespace perfzero::history_site {

namespace {

using fleet_report::html::escape;

std::string date_of(double epoch_seconds) { return text::utc_time(epoch_seconds).substr(0, 10); }

std::string short_commit(const std::string& commit) { return commit.substr(0, 10); }

std::string percent(double fraction) { return fmt::format("{:+.1f} %", fraction * 100); }

std::string value_text(const std::optional<double>& v, const std::string& unit) { return fleet_report::si(v, unit); }

// The CSS class a verdict is shown with.
const char* verdict_class(compare::Verdict v) {
  switch (v) {
    case compare::Verdict::slower:
      return "slower";
    case compare::Verdict::faster:
      return "faster";
    case compare::Verdict::changed:
      return "changed";
    default:
      return "";
  }
}

std::string verdict_html(compare::Verdict v) {
  return fmt::format("<span class='{}'>{}</span>", verdict_class(v), escape(compare::to_string(v)));
}

std::string change_html(const Change& c) {
  return fmt::format("{} {} <span class=meta>(95 % {} to {}, p = {:.2g})</span>", verdict_html(c.verdict),
                     percent(c.change), percent(c.ci_low), percent(c.ci_high), c.p_value);
}

std::string configuration_text(const history::Series& s) {
  return s.image.empty() ? s.system_name : s.system_name + " · " + s.image;
}

std::string configuration_key(const std::string& label, const std::string& system, const std::string& image) {
  return label + '\x1f' + system + '\x1f' + image;
}

// A page's file name: 64-bit FNV-1a of what it shows, in hex, the same in every build of the site.
std::string page_name(const std::string& identity) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const unsigned char c : identity) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

}  // namespace

SiteWriter::SiteWriter(SiteOptions options, std::vector<SeriesWithChanges> series)
    : options_(std::move(options)), series_(std::move(series)) {
  std::set<std::string> names;
  const auto unique_name = [&](const std::string& identity) {
    std::string name = page_name(identity);
    for (int n = 2; !names.insert(name).second; ++n) name = page_name(identity) + "-" + std::to_string(n);
    return name;
  };
  // Each configuration's runs (those with a point in any of its series), oldest first; its last
  // `last` are drawn, each with a page, and the one before them is read to compare the first with.
  std::map<std::string, std::set<std::pair<double, std::string>>> by_configuration;
  for (const auto& s : series_) {
    const auto& id = s.series;
    const std::string configuration = configuration_key(id.label, id.system_name, id.image);
    series_pages_.push_back(unique_name(configuration + '\x1f' + id.case_name + '\x1f' + id.metric));
    auto& runs = by_configuration[configuration];
    for (const auto& p : id.points) runs.emplace(p.execution_timestamp, p.execution_id);
  }
  for (const auto& [key, runs] : by_configuration) {
    const std::size_t skipped = runs.size() > options_.last ? runs.size() - options_.last : 0;
    auto it = runs.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(skipped));
    if (it != runs.begin()) wanted_.insert(std::prev(it)->second);
    for (; it != runs.end(); ++it) {
      wanted_.insert(it->second);
      run_pages_.emplace(it->second, unique_name("run\x1f" + it->second));
    }
  }
  std::error_code ec;
  for (const char* dir : {"", "series", "runs", "cost"}) {
    std::filesystem::create_directories(std::filesystem::path(options_.out) / dir, ec);
    if (ec) {
      throw OutputError(fmt::format("history site: cannot make {}: {}",
                                    (std::filesystem::path(options_.out) / dir).string(), ec.message()));
    }
  }
}

void SiteWriter::write(const std::string& relative, const std::string& html) {
  const auto file = std::filesystem::path(options_.out) / relative;
  try {
    files::write_atomically(file, html);
  } catch (const std::system_error& e) {
    throw OutputError(fmt::format("history site: cannot write {}: {}", file.string(), e.code().message()));
  }
  ++files_;
}

bool SiteWriter::wants(const history::RunRow& row) const {
  return wanted_.count(row.execution_id) > 0 ||
         (options_.cost_since && row.execution_timestamp >= *options_.cost_since);
}

void SiteWriter::add_run(const history::RunRow& row, results::Run&& run, const std::string& problem) {
  const std::string key = configuration_key(row.execution_label, row.system_name, row.image);
  const bool wanted = wanted_.count(row.execution_id) > 0;
  if (!problem.empty()) {
    problems_.push_back(problem);
    if (wanted) previous_[key] = {row.execution_id, std::nullopt};
    return;
  }
  if (run_pages_.count(row.execution_id) > 0) {
    auto& drawn = drawn_[row.execution_id];
    for (const auto& c : compare::collect_values(run)) {
      for (const auto& s : c.series) {
        auto& [kept, disturbed] = drawn.trials[{history::stored_text(c.case_name), history::stored_text(s.metric)}];
        for (std::size_t i = 0; i < s.values.size(); ++i) (s.disturbed[i] ? disturbed : kept).push_back(s.values[i]);
      }
    }
    const auto previous = previous_.find(key);
    write_run_page(row, run, previous != previous_.end() ? &previous->second : nullptr);
  }
  if (options_.cost_since && row.execution_timestamp >= *options_.cost_since) {
    const std::string date = date_of(row.execution_timestamp);
    if (date != cost_date_) {
      finish_cost_date();
      cost_date_ = date;
      fleet_report::BuildOptions build;
      build.catalog = options_.catalog;
      build.today = options_.today;
      cost_builder_ = std::make_unique<fleet_report::ReportBuilder>(build);
    }
    cost_builder_->add_run(row.execution_id, run);
    ++cost_runs_;
  }
  // Only the configuration's own runs (those with points) are what the next one is compared with,
  // whatever else the cost view read.
  if (wanted) previous_[key] = {row.execution_id, std::move(run)};
}

void SiteWriter::finish_cost_date() {
  if (!cost_builder_) return;
  std::vector<std::string> problems;
  if (options_.catalog == nullptr) problems.emplace_back("no price catalog: every shape is unpriced");
  auto report = cost_builder_->finish(std::move(problems));
  report.catalog_file = options_.catalog_file;
  report.inputs = {options_.source + ", runs of " + cost_date_};
  std::ostringstream html;
  fleet_report::write_html(report, html);
  write("cost/" + cost_date_ + ".html", html.str());
  cost_pages_.emplace_back(cost_date_, cost_runs_);
  cost_builder_.reset();
  cost_runs_ = 0;
}

void SiteWriter::write_run_page(const history::RunRow& row, const results::Run& run, const Previous* previous) {
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
  body +=
      "</table><h2>Results</h2><table><tr><th>method</th><th>metric</th><th>median</th><th>trials</th>"
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
  body += "</table><h2 id=compare>Compared with the previous run</h2>";
  if (previous == nullptr) {
    body += "<p>The first run of its configuration (label, system, image) in this history: nothing to compare.</p>";
  } else if (!previous->run) {
    body += fmt::format("<p>The previous run of its configuration, {}, could not be read (the index says why).</p>",
                        escape(previous->execution_id));
  } else {
    compare::Settings settings;
    settings.resamples = 200;  // each row's interval: enough for a page that is one of hundreds
    const auto report = compare::compare_runs(*previous->run, run, settings);
    const auto page =
        written_runs_.count(previous->execution_id) > 0 ? run_pages_.find(previous->execution_id) : run_pages_.end();
    body += fmt::format(
        "<p>Against {} of the same configuration, as <code>perfzero compare</code> judges two runs (Mann-Whitney U "
        "at {:g}, a change of at least {:g} %, disturbed trials left out).</p>",
        page != run_pages_.end() ? fmt::format("<a href='{}.html'>{}</a>", page->second, escape(previous->execution_id))
                                 : escape(previous->execution_id),
        settings.alpha, settings.min_change * 100);
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
    body += "</table>";
  }
  write(fmt::format("runs/{}.html", run_pages_.at(row.execution_id)), page("run " + row.execution_id, body, 1));
  written_runs_.insert(row.execution_id);
}

void SiteWriter::write_series_page(std::size_t k) {
  const auto& s = series_[k].series;
  const auto& points = s.points;
  // Its points among its configuration's drawn runs: the newest ones (none, when it stopped earlier).
  std::size_t first = points.size();
  while (first > 0 && run_pages_.count(points[first - 1].execution_id) > 0) --first;
  std::vector<ChartRun> runs;
  for (std::size_t i = first; i < points.size(); ++i) {
    ChartRun& r = runs.emplace_back();
    r.median = points[i].value;
    r.commit = points[i].commit;
    r.date = date_of(points[i].execution_timestamp);
    if (const auto d = drawn_.find(points[i].execution_id); d != drawn_.end()) {
      if (const auto t = d->second.trials.find({s.case_name, s.metric}); t != d->second.trials.end()) {
        r.trials = t->second.first;
        r.disturbed = t->second.second;
      }
    }
  }
  std::vector<std::pair<std::size_t, std::string>> marks;
  for (const auto& c : series_[k].changes) {
    if (c.index < first) continue;
    marks.emplace_back(c.index - first, fmt::format("{} {}", short_commit(points[c.index].commit), percent(c.change)));
  }
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
  body += runs.empty() ? fmt::format(
                             "<p>None of its configuration's last {} runs has this metric: it stopped "
                             "earlier (the index's sparkline shows its last runs).</p>",
                             options_.last)
                       : series_chart(runs, marks, s.unit);
  body += "<h2>Change points</h2>";
  if (series_[k].changes.empty()) {
    body += "<p>None.</p>";
  } else {
    body += "<table><tr><th>date</th><th>commit</th><th>run</th><th>runs before / after</th><th>change</th></tr>";
    for (auto it = series_[k].changes.rbegin(); it != series_[k].changes.rend(); ++it) {
      const auto& p = points[it->index];
      const auto page = written_runs_.count(p.execution_id) > 0 ? run_pages_.find(p.execution_id) : run_pages_.end();
      body += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td>{}</td></tr>",
                          date_of(p.execution_timestamp), escape(short_commit(p.commit)),
                          page != run_pages_.end()
                              ? fmt::format("<a href='../runs/{}.html'>{}</a>", page->second, escape(p.execution_id))
                              : escape(p.execution_id),
                          fmt::format("{} / {}", it->before, it->after), change_html(*it));
    }
    body += "</table>";
  }
  body +=
      "<h2>Runs</h2><table><tr><th>date</th><th>run</th><th>commit</th><th>median</th><th>trials</th>"
      "<th></th></tr>";
  for (std::size_t i = points.size(); i-- > first;) {
    const auto& p = points[i];
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
  body += "</table>";
  write(fmt::format("series/{}.html", series_pages_[k]), page(s.case_name + " · " + s.metric, body, 1));
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
  body += "<h2>Series</h2>";
  if (series_.empty()) body += "<p>No series: the history holds no run with a succeeded trial.</p>";
  body +=
      "<table id=series><tr><th>label</th><th>configuration</th><th>method</th><th>metric</th><th>runs</th>"
      "<th>latest</th><th>trend</th><th>latest change</th></tr>";
  for (std::size_t k = 0; k < series_.size(); ++k) {
    const auto& s = series_[k].series;
    constexpr std::size_t kSpark = 100;
    const std::size_t first = s.points.size() > kSpark ? s.points.size() - kSpark : 0;
    std::vector<double> values;
    for (std::size_t i = first; i < s.points.size(); ++i) values.push_back(s.points[i].value);
    std::vector<std::size_t> marks;
    for (const auto& c : series_[k].changes) {
      if (c.index >= first) marks.push_back(c.index - first);
    }
    std::string latest_change = "none";
    if (!series_[k].changes.empty()) {
      const auto& c = series_[k].changes.back();
      latest_change = fmt::format("{} at {} ({})", change_html(c), escape(short_commit(s.points[c.index].commit)),
                                  date_of(s.points[c.index].execution_timestamp));
    }
    body += fmt::format(
        "<tr><td>{}</td><td>{}</td><td><a href='series/{}.html'>{}</a></td><td>{}</td><td class=n>{}</td>"
        "<td class=n>{}</td><td>{}</td><td>{}</td></tr>",
        escape(s.label), escape(configuration_text(s)), series_pages_[k], escape(s.case_name), escape(s.metric),
        s.points.size(),
        escape(value_text(s.points.empty() ? std::nullopt : std::optional<double>(s.points.back().value), s.unit)),
        sparkline(values, marks), latest_change);
  }
  body += "</table><h2>Cost per date</h2>";
  if (!options_.cost_since) {
    body += "<p>Not made (<code>--cost_days 0</code>).</p>";
  } else if (cost_pages_.empty()) {
    body += "<p>No run in the dates it covers.</p>";
  } else {
    body += fmt::format(
        "<p class=meta><code>perfzero report</code> of each date's runs: speed and price per "
        "configuration, prices from {}.</p><table><tr><th>date</th><th>runs</th></tr>",
        escape(options_.catalog_file.empty() ? "no catalog" : options_.catalog_file));
    for (auto it = cost_pages_.rbegin(); it != cost_pages_.rend(); ++it) {
      body +=
          fmt::format("<tr><td><a href='cost/{0}.html'>{0}</a></td><td class=n>{1}</td></tr>", it->first, it->second);
    }
    body += "</table>";
  }
  write("index.html", page("perfzero history", body, 0));
}

std::size_t SiteWriter::finish() {
  finish_cost_date();
  for (std::size_t k = 0; k < series_.size(); ++k) write_series_page(k);
  write_index();
  return files_;
}

}  // namespace perfzero::history_site
