#pragma once
// The results history (docs/history.md): runs stored in a database, SQLite by default, PostgreSQL
// for a team. One implementation over either backend (history/sql_connection.hpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare/history_compare.hpp"
#include "history/run_document.hpp"
#include "history/sql_connection.hpp"
#include "results/model.hpp"

namespace perfzero::history {

// The schema this build writes; a database at a later version is refused, an earlier one migrated.
inline constexpr int kSchemaVersion = 4;

struct RunRow {
  std::string execution_id;
  double execution_timestamp = 0;
  std::string execution_label;
  std::string system_name;
  std::string image;
  std::string status;
  int cases = 0;
  int trials = 0;
  std::string commit;
  std::string branch;
  std::string build_label;
};

// One run's value in a series: the run's median over its succeeded, undisturbed trials.
struct SeriesPoint {
  std::string execution_id;
  double execution_timestamp = 0;
  std::string commit;
  double value = 0;
  int trials = 0;  // the trials behind the median
};

// What identifies a series (docs/history.md): the label and the configuration (system, image, case),
// and the metric. The commit, branch and build label describe each point; they do not split series.
struct Series {
  std::string label;
  std::string system_name;
  std::string image;
  std::string case_name;
  std::string metric;
  std::string unit;
  Direction direction = Direction::unspecified;
  std::vector<SeriesPoint> points;  // oldest first
};

struct SeriesFilter {
  std::string label;                               // empty: every label
  std::optional<double> since;                     // epoch seconds: runs started then or later
  std::function<bool(const std::string&)> method;  // null: every case
  std::function<bool(const std::string&)> metric;  // null: every metric
  bool use_flagged = false;  // each run's median over all its succeeded trials, disturbed ones too
};

// What a series read without --use_flagged left out: points (one per run and series) whose every
// trial was disturbed, the runs they belong to, and those trials.
struct SeriesLeftOut {
  std::size_t points = 0;
  std::set<std::int64_t> runs;
  std::set<std::pair<std::int64_t, std::string>> run_cases;  // each (run, case) counted once in `trials`
  std::int64_t trials = 0;
  // The (case, metric) of each series left with no point: every run's trials of it disturbed.
  std::vector<std::pair<std::string, std::string>> emptied;
};

// What resolve_id found for a prefix of an execution id.
struct ResolvedId {
  std::vector<std::string> matches;  // at most 10
};

struct ListFilter {
  std::string label;  // empty: every label
  int limit = 50;
};

// Text as the database keeps it (valid UTF-8: invalid bytes become U+FFFD), to match stored values.
std::string stored_text(const std::string& text);

// The system column: --system_name, else the instance type, else the host's name (from run.json's info).
std::string system_of(const nlohmann::json& run_info);

class Store {
 public:
  // Opens (creating and migrating as needed) the database `db`: a file, or a postgresql:// URL.
  explicit Store(const std::string& db);
  explicit Store(std::unique_ptr<SqlConnection> connection);

  int schema_version();
  enum class Ingested { stored, already_stored, completed };
  // Stores the run, all of it or nothing, in one transaction. A run with its execution id already
  // stored is left as it was (already_stored), unless that one had not completed (it was stored while
  // running or after an interrupt): then this one replaces it (completed).
  Ingested ingest(const results::Run& run);
  std::vector<RunRow> list(const ListFilter& filter);
  // The stored execution ids that start with `prefix` (an id itself matches only itself), at most 10.
  ResolvedId resolve_id(const std::string& prefix);
  // Every series the filter keeps, its points oldest first (`history changes`).
  std::vector<Series> series(const SeriesFilter& filter, SeriesLeftOut* left_out = nullptr);
  // Deletes all but the newest `keep_last` runs of each label (of `label` only, when given); the
  // execution ids deleted, oldest first. SQLite's file is compacted afterwards (VACUUM) when a run
  // was deleted; a VACUUM that fails (it needs free space about the file's size) leaves the runs
  // deleted and says why in `vacuum_problem`.
  std::vector<std::string> prune(const std::string& label, int keep_last, std::string* vacuum_problem = nullptr);
  // The stored run with its cases, succeeded and failed trials and metrics; nullopt when unknown.
  std::optional<results::Run> show(const std::string& execution_id);
  // Every stored run of `label` (every label when empty) started at `since` or later, oldest first,
  // that `want` keeps, each restored from its document to `detail`, a few at a time (a history of
  // 10,000 runs is never all in memory). Documents are read on this thread and decoded on others
  // while `fn` handles the ones before them, in order, on this thread. A run whose document cannot
  // be read is given with `problem` set and an empty run.
  void for_each_run(const std::string& label, std::optional<double> since,
                    const std::function<bool(const RunRow& row)>& want,
                    const std::function<void(const RunRow& row, results::Run&& run, const std::string& problem)>& fn,
                    TrialDetail detail = TrialDetail::whole);
  // What `compare --history` judges a candidate against: the series points of the last `last` runs
  // of `label` (newest first), leaving out `except_id`, per case and metric; `runs` counts the runs.
  struct LabelMedians {
    compare::HistoryMedians medians;
    compare::HistoryLeftOut all_disturbed;  // runs with no undisturbed trial of a metric (not --use_flagged)
    std::size_t runs = 0;
  };
  LabelMedians label_medians(const std::string& label, int last, const std::string& except_id, bool use_flagged);

  std::string describe() const { return db_->describe(); }

  // While it lives, every read of this store sees the database as it was at the first one: a
  // reader of many queries (the site: series, then runs, then documents) never mixes an ingest or
  // a prune made meanwhile into half of what it writes. Writes through this store fail meanwhile.
  class ReadSnapshot {
   public:
    explicit ReadSnapshot(Store& store) : store_(store) {
      store_.db_->begin_read();
      store_.reading_ = true;
    }
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;
    ~ReadSnapshot() {
      store_.reading_ = false;
      try {
        store_.db_->commit();
      } catch (...) {  // nothing was written: a failed end of a read loses nothing
      }
    }

   private:
    Store& store_;
  };

 private:
  void migrate();

  std::unique_ptr<SqlConnection> db_;
  bool reading_ = false;  // inside a ReadSnapshot: reads need no transaction of their own
};

}  // namespace perfzero::history
