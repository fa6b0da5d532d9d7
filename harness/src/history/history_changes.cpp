#include "history/history_changes.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <optional>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/escape.hpp"
#include "common/files.hpp"
#include "common/junit_xml.hpp"
#include "common/si_number.hpp"
#include "common/utc_time.hpp"
#include "history/changes_gate.hpp"

namespace perfzero::history {

namespace {

using nlohmann::json;

std::string percent(double fraction) { return fmt::format("{:+.2f} %", fraction * 100); }

// "103 ms -> 110 ms": the step's two means as every table for people writes values.
std::string step(const compare::ChangePoint& point, const std::string& unit) {
  return fmt::format("{} -> {}", text::si(point.mean_before, unit), text::si(point.mean_after, unit));
}

std::string short_commit(const std::string& commit) { return commit.empty() ? "-" : commit.substr(0, 12); }

std::size_t count_runs(const std::vector<history::Series>& series) {
  std::set<std::string> ids;
  for (const auto& s : series) {
    for (const auto& p : s.points) ids.insert(p.execution_id);
  }
  return ids.size();
}

std::string headline(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series,
                     const compare::ChangePointSettings& settings) {
  std::set<const history::Series*> with;
  int slower = 0;
  for (const auto& c : changes) {
    with.insert(c.series);
    if (c.verdict == compare::Verdict::slower) ++slower;
  }
  return fmt::format(
      "{} change point(s), {} slower, in {} of {} series ({} runs); p < {:g} (Student's t){}", changes.size(), slower,
      with.size(), series.size(), count_runs(series), settings.max_pvalue,
      settings.min_magnitude > 0 ? fmt::format(", |change| >= {:g} %", settings.min_magnitude * 100) : std::string());
}

std::function<bool(const std::string&)> matcher(const std::string& pattern) {
  if (pattern.empty()) return nullptr;
  auto re = std::make_shared<std::regex>(pattern, std::regex::ECMAScript);
  return [re](const std::string& s) { return std::regex_search(s, *re); };
}

}  // namespace

double since_epoch(const std::string& date) {
  std::tm tm{};
  const char* end = strptime(date.c_str(), "%Y-%m-%d", &tm);
  if (end == nullptr || *end != '\0') {
    throw UsageError(fmt::format("history --since: '{}' is not a date of the form YYYY-MM-DD", date));
  }
  return static_cast<double>(timegm(&tm));
}

history::SeriesFilter series_filter(const cli::HistoryOptions& o) {
  history::SeriesFilter filter;
  filter.label = o.label;
  if (!o.since.empty()) filter.since = since_epoch(o.since);
  filter.method = matcher(o.method);
  filter.metric = matcher(o.metric);
  filter.use_flagged = o.use_flagged;
  return filter;
}

compare::ChangePointSettings change_point_settings(const cli::HistoryOptions& o) {
  compare::ChangePointSettings s;
  s.max_pvalue = o.max_pvalue;
  s.min_magnitude = o.min_magnitude;
  s.window = static_cast<std::size_t>(o.window);
  return s;
}

std::vector<SeriesChange> find_series_changes(const std::vector<history::Series>& series,
                                              const compare::ChangePointSettings& settings) {
  std::vector<SeriesChange> out;
  std::vector<double> values;
  for (const auto& s : series) {
    values.clear();
    for (const auto& p : s.points) values.push_back(p.value);
    for (const auto& cp : compare::find_change_points(values, settings)) {
      out.push_back({&s, cp, compare::directed(cp.change, s.direction)});
    }
  }
  return out;
}

nlohmann::json changes_json(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series,
                            const compare::ChangePointSettings& settings) {
  json list = json::array();
  for (const auto& c : changes) {
    const auto& s = *c.series;
    list.push_back({{"configuration", {{"label", s.label}, {"system", s.system_name}, {"image", s.image}}},
                    {"method", s.case_name},
                    {"metric", s.metric},
                    {"unit", s.unit},
                    {"direction", std::string(perfzero::to_string(s.direction))},
                    {"commit", c.at().commit},
                    {"execution_id", c.at().execution_id},
                    {"execution_timestamp", c.at().execution_timestamp},
                    {"previous_commit", c.previous().commit},
                    {"previous_execution_id", c.previous().execution_id},
                    {"runs_before", c.point.before},
                    {"runs_after", c.point.after},
                    {"mean_before", c.point.mean_before},
                    {"mean_after", c.point.mean_after},
                    {"change", c.point.change},
                    {"ci_low", c.point.ci_low},
                    {"ci_high", c.point.ci_high},
                    {"p_value", c.point.p_value},
                    {"verdict", std::string(compare::to_string(c.verdict))}});
  }
  return {
      {"changes", std::move(list)},
      {"series", series.size()},
      {"runs", count_runs(series)},
      {"settings",
       {{"max_pvalue", settings.max_pvalue},
        {"min_magnitude", settings.min_magnitude},
        {"window", settings.window},
        {"method",
         "E-Divisive means (alpha 1) proposing, Student's t-test (pooled variance) between neighbouring segments"}}}};
}

std::string changes_text(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series,
                         const compare::ChangePointSettings& settings) {
  std::string out = "history changes: " + headline(changes, series, settings) + "\n";
  const history::Series* last = nullptr;
  for (const auto& c : changes) {
    const auto& s = *c.series;
    if (c.series != last) {
      out += fmt::format("\n{}  {}  label {}  system {}  image {}\n", text::printable(s.case_name),
                         text::printable(s.metric), text::printable(s.label.empty() ? "-" : s.label),
                         text::printable(s.system_name.empty() ? "-" : s.system_name),
                         text::printable(s.image.empty() ? "-" : s.image));
      last = c.series;
    }
    out += fmt::format(
        "  {}  {:<7} {:>9} [{}, {}]  p={:.2g}  {}  commit {} (was {})  run {}  "
        "({} runs before, {} after)\n",
        text::utc_time(c.at().execution_timestamp), compare::to_string(c.verdict), percent(c.point.change),
        percent(c.point.ci_low), percent(c.point.ci_high), c.point.p_value, step(c.point, text::printable(s.unit)),
        text::printable(short_commit(c.at().commit)), text::printable(short_commit(c.previous().commit)),
        text::printable(c.at().execution_id), c.point.before, c.point.after);
  }
  return out;
}

std::string changes_markdown(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series,
                             const compare::ChangePointSettings& settings) {
  std::string out = "### " + headline(changes, series, settings) + "\n\n";
  if (changes.empty()) return out;
  out += "| method | metric | label | system | when (UTC) | verdict | change | 95 % interval | p | commit | run |\n";
  out += "|---|---|---|---|---|---|---:|---|---:|---|---|\n";
  for (const auto& c : changes) {
    const auto& s = *c.series;
    out +=
        fmt::format("| {} | {} | {} | {} | {} | {} | {} | [{}, {}] | {:.2g} | {} | {} |\n", text::md_cell(s.case_name),
                    text::md_cell(s.metric), text::md_cell(s.label), text::md_cell(s.system_name),
                    text::utc_time(c.at().execution_timestamp), compare::to_string(c.verdict), percent(c.point.change),
                    percent(c.point.ci_low), percent(c.point.ci_high), c.point.p_value,
                    text::md_cell(short_commit(c.at().commit)), text::md_cell(c.at().execution_id));
  }
  return out;
}

std::string changes_junit(const std::vector<SeriesChange>& changes, const std::vector<history::Series>& series) {
  std::vector<junit::TestCase> cases;
  double newest = 0;
  for (const auto& s : series) {
    junit::TestCase tc;
    tc.classname = fmt::format("{}.{}.{}", s.label.empty() ? "-" : s.label, s.system_name.empty() ? "-" : s.system_name,
                               s.case_name);
    tc.name = s.metric;
    const SeriesChange* latest = nullptr;
    for (const auto& c : changes) {
      if (c.series == &s) latest = &c;
    }
    if (latest != nullptr) {
      const std::string figures = fmt::format(
          "{} {} [{}, {}] at commit {} (run {}, {}): {}, p={:.2g}", compare::to_string(latest->verdict),
          percent(latest->point.change), percent(latest->point.ci_low), percent(latest->point.ci_high),
          short_commit(latest->at().commit), latest->at().execution_id,
          text::utc_time(latest->at().execution_timestamp), step(latest->point, s.unit), latest->point.p_value);
      if (latest->verdict == compare::Verdict::slower) tc.failure = figures;
      tc.output = "latest change point: " + figures;
    }
    if (!s.points.empty()) newest = std::max(newest, s.points.back().execution_timestamp);
    cases.push_back(std::move(tc));
  }
  return junit::write_suite("perfzero history changes", cases, newest > 0 ? newest : junit::now());
}

RunChanges changes_made_by(history::Store& store, const results::RunInfo& run,
                           const compare::ChangePointSettings& settings) {
  // A change point the series had before this run is not the run's own, even where the run moved it
  // a little (each point is placed by least squares, and the new run changes its last segment's mean).
  constexpr std::size_t kSamePlace = 5;
  history::SeriesFilter filter;
  filter.label = run.execution_label;
  const std::string id = history::stored_text(run.execution_id);
  const auto position_in = [&](const history::Series& s) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < s.points.size(); ++i) {
      if (s.points[i].execution_id == id) return i;
    }
    return std::nullopt;
  };
  RunChanges out;
  for (auto& s : store.series(filter)) {
    if (position_in(s)) out.series.push_back(std::move(s));
  }
  const auto with = find_series_changes(out.series, settings);
  for (const auto& s : out.series) {
    const std::size_t mine = *position_in(s);
    // Each SeriesChange points into the vector it was found in: both stay alive while they are read.
    std::vector<history::Series> without = {s};
    without[0].points.erase(without[0].points.begin() + static_cast<std::ptrdiff_t>(mine));
    const auto before = find_series_changes(without, settings);
    for (const auto& c : with) {
      if (c.series != &s) continue;
      const bool known = std::any_of(before.begin(), before.end(), [&](const SeriesChange& b) {
        const std::size_t at = b.point.index >= mine ? b.point.index + 1 : b.point.index;  // in s
        const std::size_t distance = at > c.point.index ? at - c.point.index : c.point.index - at;
        return b.verdict == c.verdict && distance <= kSamePlace;
      });
      if (!known) out.changes.push_back(c);
    }
  }
  return out;
}

std::string run_change_line(const SeriesChange& c) {
  const auto& s = *c.series;
  return fmt::format("perfzero: change point in {} {}: {} {} [{}, {}], {} (p={:.2g}) at commit {}, run {}",
                     text::printable(s.case_name), text::printable(s.metric), compare::to_string(c.verdict),
                     percent(c.point.change), percent(c.point.ci_low), percent(c.point.ci_high),
                     step(c.point, text::printable(s.unit)), c.point.p_value,
                     text::printable(short_commit(c.at().commit)), text::printable(c.at().execution_id));
}

std::string left_out_words(const history::SeriesLeftOut& left_out) {
  if (left_out.points == 0) return "";
  return fmt::format(
      "{} point(s) of {} run(s) left out: every one of their {} trial(s) was disturbed (host busy, GPU throttled); "
      "--use_flagged judges them",
      left_out.points, left_out.runs.size(), left_out.trials);
}

json left_out_json(const history::SeriesLeftOut& left_out) {
  return {{"points", left_out.points},
          {"runs", left_out.runs.size()},
          {"trials", left_out.trials},
          {"series_emptied", left_out.emptied.size()},
          {"why", left_out.points == 0 ? ""
                                       : "every trial of each point was disturbed (host busy, GPU throttled); "
                                         "--use_flagged judges them"}};
}

int history_changes(const cli::HistoryOptions& o, history::Store& store) {
  history::SeriesLeftOut left_out;
  const auto series = store.series(series_filter(o), &left_out);
  // On stderr, so that every format's stdout stays what it was: a busy host's runs vanish from the
  // series, and "0 of 0 series" alone does not say why.
  if (const std::string words = left_out_words(left_out); !words.empty()) {
    fmt::print(stderr, "perfzero history changes: {}\n", words);
  }
  const auto settings = change_point_settings(o);
  const auto changes = find_series_changes(series, settings);
  std::optional<ChangesGate> gate;
  if (o.fail_on_change) {
    gate = changes_gate(changes, series, left_out, settings, o.metric, {o.pass_on.undecided, o.pass_on.missing});
  }
  if (!o.junit_file.empty()) files::write_atomically(o.junit_file, changes_junit(changes, series));
  if (o.format == "json") {
    json out = changes_json(changes, series, settings);
    out["left_out"] = left_out_json(left_out);
    if (gate) out["gate"] = changes_gate_json(*gate);
    fmt::print("{}\n", out.dump(2, ' ', false, json::error_handler_t::replace));
  } else if (o.format == "markdown") {
    fmt::print("{}{}", changes_markdown(changes, series, settings), gate ? "\n" + changes_gate_line(*gate) : "");
  } else {
    fmt::print("{}{}", changes_text(changes, series, settings), gate ? "\n" + changes_gate_line(*gate) : "");
  }
  return gate ? gate->result.exit_status : 0;
}

}  // namespace perfzero::history
