// Store::series: every series of the history, read as three narrow queries and grouped here
// (docs/history.md, "Change points"; docs/performance.md has why not one sorted join).
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "history/store.hpp"
#include "history/store_rows.hpp"

namespace perfzero::history {

namespace {

using Configuration = std::tuple<std::string, std::string, std::string>;  // label, system name, image

// The runs the filter keeps, as a WHERE clause over `runs r` and its parameters: the runs' read and
// the points' read share it.
struct RunsWhere {
  std::string sql;
  std::vector<SqlValue> params;
};

RunsWhere runs_where_of(const SeriesFilter& filter) {
  RunsWhere where{"WHERE r.execution_timestamp >= $1", {filter.since.value_or(-1e300)}};
  if (!filter.label.empty()) {
    where.sql += " AND r.execution_label = $2";
    where.params.emplace_back(valid_utf8(filter.label));  // as stored: PostgreSQL refuses bytes that are not UTF-8
  }
  return where;
}

struct RunKey {
  std::size_t configuration = 0;  // into SeriesRuns::configurations
  std::string execution_id;
  double execution_timestamp = 0;
  std::string commit;
};

// The runs by id, each pointing at its configuration, which is stored once however many runs share it.
struct SeriesRuns {
  std::map<Configuration, std::size_t> configuration_index;
  std::vector<const Configuration*> configurations;  // keys of configuration_index, by index
  std::map<std::int64_t, RunKey> by_id;
};

void read_runs(SqlConnection& db, const RunsWhere& where, SeriesRuns& runs) {
  for (const auto& r : db.query("SELECT r.id, r.execution_label, r.system_name, r.image, r.execution_id, "
                                "r.execution_timestamp, r.commit_id FROM runs r " +
                                    where.sql,
                                where.params)) {
    auto [it, inserted] = runs.configuration_index.try_emplace(
        {r[1].value_or(""), r[2].value_or(""), r[3].value_or("")}, runs.configurations.size());
    if (inserted) runs.configurations.push_back(&it->first);
    runs.by_id[std::stoll(r[0].value_or("0"))] = {it->second, r[4].value_or(""), std::stod(r[5].value_or("0")),
                                                  r[6].value_or("")};
  }
}

struct SeriesKey {
  std::string case_name, metric, unit;
  Direction direction = Direction::unspecified;
  bool kept = false;  // by the method and metric filters, applied once per series
};

std::map<std::int64_t, SeriesKey> read_stored_series(SqlConnection& db, const SeriesFilter& filter) {
  std::map<std::int64_t, SeriesKey> stored_series;
  for (const auto& r : db.query("SELECT id, case_name, metric, unit, direction FROM series")) {
    SeriesKey k{r[1].value_or(""), r[2].value_or(""), r[3].value_or(""),
                direction_from_string(r[4].value_or("")).value_or(Direction::unspecified)};
    // The filters are regular expressions, which the two dialects spell differently: applied here.
    k.kept = (!filter.method || filter.method(k.case_name)) && (!filter.metric || filter.metric(k.metric));
    stored_series[std::stoll(r[0].value_or("0"))] = std::move(k);
  }
  return stored_series;
}

// A series is its configuration, case and metric (docs/history.md): stored series that differ only
// in unit or direction (a method whose unit changed) are one, named by its oldest point's. Each kept
// stored series's id maps to the index of its (case, metric).
std::map<std::int64_t, std::size_t> name_of_each_series(const std::map<std::int64_t, SeriesKey>& stored_series) {
  std::map<std::pair<std::string, std::string>, std::size_t> name_index;
  std::map<std::int64_t, std::size_t> name_of_series;
  for (const auto& [id, k] : stored_series) {
    if (k.kept) name_of_series[id] = name_index.try_emplace({k.case_name, k.metric}, name_index.size()).first->second;
  }
  return name_of_series;
}

struct Point {
  std::int64_t run_id;  // the tie-break of equal times
  std::int64_t series_id;
  SeriesPoint point;
};
using GroupedPoints = std::map<std::pair<std::size_t, std::size_t>, std::vector<Point>>;  // by (configuration, name)

GroupedPoints read_points(SqlConnection& db, const SeriesFilter& filter, const RunsWhere& where, const SeriesRuns& runs,
                          const std::map<std::int64_t, std::size_t>& name_of_series,
                          const std::map<std::int64_t, SeriesKey>& stored_series, SeriesLeftOut* left_out) {
  GroupedPoints grouped;
  std::set<std::pair<std::size_t, std::size_t>> left_groups;  // those with a point left out
  std::string points_sql = std::string("SELECT p.run_id, p.series_id, ") +
                           (filter.use_flagged ? "p.value_all, p.trials_all" : "p.value, p.trials, p.trials_all") +
                           " FROM series_points p JOIN runs r ON r.id = p.run_id " + where.sql;
  // A run whose every trial was disturbed has no undisturbed median: not a point of the series. Read
  // only to be counted when the caller asks what was left out.
  if (!filter.use_flagged && left_out == nullptr) points_sql += " AND p.value IS NOT NULL";
  for (const auto& r : db.query(points_sql, where.params)) {
    const std::int64_t run_id = std::stoll(r[0].value_or("0"));
    const std::int64_t series_id = std::stoll(r[1].value_or("0"));
    const auto run = runs.by_id.find(run_id);
    const auto name = name_of_series.find(series_id);
    // Not kept by the filters, or a run stored after the runs were read (another ingest's).
    if (run == runs.by_id.end() || name == name_of_series.end()) continue;
    if (!r[2]) {
      if (left_out != nullptr) {
        ++left_out->points;
        left_out->runs.insert(run_id);
        // A case's trials once, however many of its metrics' series they left.
        if (left_out->run_cases.emplace(run_id, stored_series.at(series_id).case_name).second) {
          left_out->trials += r.size() > 4 ? std::stoll(r[4].value_or("0")) : 0;
        }
        left_groups.emplace(run->second.configuration, name->second);
      }
      continue;
    }
    grouped[{run->second.configuration, name->second}].push_back(
        {run_id, series_id,
         SeriesPoint{run->second.execution_id, run->second.execution_timestamp, run->second.commit,
                     std::stod(r[2].value_or("0")), std::stoi(r[3].value_or("0"))}});
  }
  if (left_out != nullptr) {
    for (const auto& key : left_groups) {
      if (grouped.count(key) > 0) continue;
      const auto stored = std::find_if(name_of_series.begin(), name_of_series.end(),
                                       [&](const auto& entry) { return entry.second == key.second; });
      const SeriesKey& k = stored_series.at(stored->first);
      left_out->emptied.emplace_back(k.case_name, k.metric);
    }
  }
  return grouped;
}

// Each group's points in time order become one Series, named by its oldest point's stored series.
std::vector<Series> series_of_groups(GroupedPoints& grouped, const SeriesRuns& runs,
                                     const std::map<std::int64_t, SeriesKey>& stored_series) {
  std::vector<Series> out;
  out.reserve(grouped.size());
  for (auto& [key, points] : grouped) {
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
      return std::tie(a.point.execution_timestamp, a.run_id) < std::tie(b.point.execution_timestamp, b.run_id);
    });
    const auto& [label, system_name, image] = *runs.configurations[key.first];
    const SeriesKey& k = stored_series.at(points.front().series_id);
    Series& s = out.emplace_back();
    s.label = label;
    s.system_name = system_name;
    s.image = image;
    s.case_name = k.case_name;
    s.metric = k.metric;
    s.unit = k.unit;
    s.direction = k.direction;
    s.points.reserve(points.size());
    for (auto& p : points) s.points.push_back(std::move(p.point));
  }
  return out;
}

}  // namespace

std::vector<Series> Store::series(const SeriesFilter& filter, SeriesLeftOut* left_out) {
  // Its three reads see one state of the database: a run re-ingested between them would otherwise
  // be missing from the points.
  std::optional<ReadSnapshot> own_snapshot;
  if (!reading_) own_snapshot.emplace(*this);
  // Three narrow reads grouped here rather than one join sorted by the database: sorting every point
  // of a long history by five text columns was most of `history site`'s time before its pages
  // (400,000 points: about 7 s), and each point's row repeated its run's and series' texts.
  const RunsWhere where = runs_where_of(filter);
  SeriesRuns runs;
  read_runs(*db_, where, runs);
  const std::map<std::int64_t, SeriesKey> stored_series = read_stored_series(*db_, filter);
  const std::map<std::int64_t, std::size_t> name_of_series = name_of_each_series(stored_series);
  GroupedPoints grouped = read_points(*db_, filter, where, runs, name_of_series, stored_series, left_out);
  std::vector<Series> out = series_of_groups(grouped, runs, stored_series);
  // Byte order, as SQLite's BINARY collation gave before, whichever database it came from.
  std::sort(out.begin(), out.end(), [](const Series& a, const Series& b) {
    return std::tie(a.label, a.system_name, a.image, a.case_name, a.metric) <
           std::tie(b.label, b.system_name, b.image, b.case_name, b.metric);
  });
  return out;
}

}  // namespace perfzero::history
