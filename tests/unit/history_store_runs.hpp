#pragma once
// What the results-history tests share: a run of two cases (one with a name that is not UTF-8) of
// `trials` trials, the last failed, and a row count of a real SQLite file.
#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "results/model.hpp"

namespace perfzero::history::test_runs {

inline results::Run make_run(const std::string& id, const std::string& label, double timestamp, int trials = 3,
                             const std::string& metric = "latency") {
  results::Run run;
  run.status = "completed";
  run.info.execution_id = id;
  run.info.execution_label = label;
  run.info.execution_timestamp = timestamp;
  run.info.system_name = "box";
  run.info.setup_info = {{"docker_image", "perfzero:cpu"}};
  for (const char* name : {"fam.A.one", "fam.A.two[n=\xff]"}) {
    results::Case c;
    c.name = c.method = name;
    for (int n = 1; n <= trials; ++n) {
      results::Trial t;
      t.number = n;
      t.outcome = n == trials ? Outcome::failed : Outcome::succeeded;
      t.wall_time = 0.5 + n;
      t.metrics.push_back({metric, 10.0 * n, "ms", std::nullopt, std::nullopt, Direction::lower_is_better});
      t.metrics.push_back({"rate", 1.0 / n, "1/s", std::nullopt, std::nullopt, Direction::higher_is_better});
      c.trials.push_back(t);
    }
    results::Trial warm = c.trials.front();
    warm.warmup = true;
    c.warmups.push_back(warm);
    run.cases.push_back(c);
  }
  return run;
}

inline int count(const std::filesystem::path& db, const std::string& table) {
  sqlite3* raw = nullptr;
  sqlite3_open(db.c_str(), &raw);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(raw, ("SELECT COUNT(*) FROM " + table).c_str(), -1, &stmt, nullptr);
  sqlite3_step(stmt);
  const int n = sqlite3_column_int(stmt, 0);
  sqlite3_finalize(stmt);
  sqlite3_close(raw);
  return n;
}

inline int count_where(const std::filesystem::path& db, const std::string& table, const std::string& where) {
  return count(db, table + " WHERE " + where);
}

}  // namespace perfzero::history::test_runs
