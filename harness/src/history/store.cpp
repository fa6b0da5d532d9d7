// Ingest and queries of the results history, written once over SqlConnection (docs/history.md).
#include "history/store.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "history/ordered_decoder.hpp"
#include "history/run_document.hpp"
#include "history/store_rows.hpp"
#include "results/model_json.hpp"

namespace perfzero::history {

namespace {

using nlohmann::json;

// Text from a run directory may hold any bytes; the database gets valid UTF-8 (PostgreSQL insists).
std::string text(const std::string& s) { return valid_utf8(s); }

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The id of the row an INSERT ... RETURNING id made (both SQLite 3.35+ and PostgreSQL have it).
std::int64_t inserted_id(const SqlConnection& db, const std::vector<SqlRow>& rows, const std::string& table) {
  if (rows.empty() || rows[0].empty() || !rows[0][0]) {
    throw HistoryError(fmt::format("{}: no id for the new {} row", db.describe(), table));
  }
  return std::stoll(*rows[0][0]);
}

std::string image_of(const results::RunInfo& info) {
  const auto it = info.setup_info.find("docker_image");
  return it != info.setup_info.end() && it->is_string() ? it->get<std::string>() : "";
}

// False when a run with this execution id is stored already. ON CONFLICT makes that answer exact
// under concurrent ingests too: a second writer waits for the first, then inserts nothing.
bool insert_run(SqlConnection& db, const results::Run& run) {
  const auto& info = run.info;
  const json info_json = results::run_info_to_json(info);
  std::int64_t measured = 0;
  for (const auto& c : run.cases) measured += static_cast<std::int64_t>(c.trials.size());
  const auto inserted = db.query(
      "INSERT INTO runs (execution_id, execution_timestamp, execution_label, system_name, image, status, "
      "ingested_at, commit_id, branch, build_label, cases_count, trials_count) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) "
      "ON CONFLICT (execution_id) DO NOTHING RETURNING id",
      {text(info.execution_id), info.execution_timestamp, text(info.execution_label), text(system_of(info_json)),
       text(image_of(info)), run.status, now_seconds(), text(info.source.commit), text(info.source.branch),
       text(info.source.build_label), static_cast<std::int64_t>(run.cases.size()), measured});
  if (inserted.empty()) return false;
  const std::int64_t run_id = inserted_id(db, inserted, "runs");
  // The run whole, once, compressed: what `history show` gives back.
  db.exec("INSERT INTO run_documents (run_id, document) VALUES ($1, $2)", {run_id, SqlBlob{compress_document(run)}});
  insert_series_points(db, run_id, run);
  return true;
}

RunRow row_of(const SqlRow& r) {
  RunRow out;
  out.execution_id = r[0].value_or("");
  out.execution_timestamp = std::stod(r[1].value_or("0"));
  out.execution_label = r[2].value_or("");
  out.system_name = r[3].value_or("");
  out.image = r[4].value_or("");
  out.status = r[5].value_or("");
  out.cases = std::stoi(r[6].value_or("0"));
  out.trials = std::stoi(r[7].value_or("0"));
  out.commit = r[8].value_or("");
  out.branch = r[9].value_or("");
  out.build_label = r[10].value_or("");
  return out;
}

const char* const kListColumns =
    "SELECT r.execution_id, r.execution_timestamp, r.execution_label, r.system_name, r.image, r.status, "
    "r.cases_count, r.trials_count, r.commit_id, r.branch, r.build_label";

}  // namespace

std::string stored_text(const std::string& s) { return valid_utf8(s); }

Store::Store(const std::string& db) : Store(open_database(db)) {}

Store::Store(std::unique_ptr<SqlConnection> connection) : db_(std::move(connection)) { migrate(); }

Store::Ingested Store::ingest(const results::Run& run) {
  if (run.info.execution_id.empty()) {
    throw HistoryError("the run has no execution_id: it cannot be stored (is it a perfzero run?)");
  }
  db_->begin();
  try {
    Ingested result = Ingested::stored;
    const auto before =
        db_->query("SELECT id, status FROM runs WHERE execution_id = $1", {text(run.info.execution_id)});
    if (!before.empty()) {
      // A partial copy (stored while the run ran, or after an interrupt) gives way to the run as it is now.
      if (before[0][1].value_or("") == "completed" || run.status == before[0][1].value_or("")) {
        db_->rollback();
        return Ingested::already_stored;
      }
      db_->exec("DELETE FROM runs WHERE id = $1", {std::stoll(before[0][0].value_or("0"))});
      result = Ingested::completed;
    }
    if (!insert_run(*db_, run)) {
      // Another writer stored it between the look and the insert.
      db_->rollback();
      return Ingested::already_stored;
    }
    db_->commit();
    return result;
  } catch (...) {
    db_->rollback();
    throw;
  }
}

std::vector<RunRow> Store::list(const ListFilter& filter) {
  std::vector<SqlRow> rows;
  if (filter.label.empty()) {
    rows =
        db_->query(std::string(kListColumns) + " FROM runs r ORDER BY r.execution_timestamp DESC, r.id DESC LIMIT $1",
                   {std::int64_t{filter.limit}});
  } else {
    rows = db_->query(
        std::string(kListColumns) +
            " FROM runs r WHERE r.execution_label = $1 ORDER BY r.execution_timestamp DESC, r.id DESC LIMIT $2",
        {text(filter.label), std::int64_t{filter.limit}});
  }
  std::vector<RunRow> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(row_of(r));
  return out;
}

std::optional<results::Run> Store::show(const std::string& execution_id) {
  const auto runs = db_->query(
      "SELECT r.status, d.document FROM runs r LEFT JOIN run_documents d ON d.run_id = r.id "
      "WHERE r.execution_id = $1",
      {execution_id});
  if (runs.empty()) return std::nullopt;
  // What the database holds is read as any file: damage is one line naming the run, never a crash.
  try {
    results::Run run = restore_document(runs[0][1].value_or(""));
    run.status = runs[0][0].value_or("");
    return run;
  } catch (const HistoryError& e) {
    throw HistoryError(fmt::format("{}: run {}: {}", db_->describe(), execution_id, e.what()));
  } catch (const std::exception& e) {
    throw HistoryError(fmt::format("{}: run {} is stored damaged (a changed or broken database?): {}", db_->describe(),
                                   execution_id, e.what()));
  }
}

void Store::for_each_run(
    const std::string& label, std::optional<double> since, const std::function<bool(const RunRow& row)>& want,
    const std::function<void(const RunRow& row, results::Run&& run, const std::string& problem)>& fn,
    TrialDetail detail) {
  std::vector<SqlValue> params = {since.value_or(-1e300)};
  std::string where = "WHERE r.execution_timestamp >= $1";
  if (!label.empty()) {
    where += " AND r.execution_label = $2";
    params.emplace_back(text(label));
  }
  // The rows first, then each document by itself: the documents of a long history are read one at a time.
  const auto rows = db_->query(
      std::string(kListColumns) + ", r.id FROM runs r " + where + " ORDER BY r.execution_timestamp, r.id", params);
  // Inflating and parsing a document is most of the time (about 3 ms for 5 cases of 5 trials); the
  // connection is not shared between threads, so only that part moves off this one.
  struct Restored {
    RunRow row;
    results::Run run;
    std::string problem;
  };
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
  OrderedDecoder<Restored> decoder(threads);
  const auto hand_over_oldest = [&] {
    Restored restored = decoder.take();
    fn(restored.row, std::move(restored.run), restored.problem);
  };
  for (const auto& r : rows) {
    RunRow row = row_of(r);
    if (!want(row)) continue;
    const auto doc =
        db_->query("SELECT document FROM run_documents WHERE run_id = $1", {std::stoll(r[11].value_or("0"))});
    std::optional<std::string> bytes;
    if (!doc.empty()) bytes = doc[0][0].value_or("");
    decoder.give([bytes = std::move(bytes), row = std::move(row), detail]() {
      Restored out{row, {}, {}};
      try {
        if (!bytes) throw HistoryError("it has no stored document");
        out.run = restore_document(*bytes, detail);
        out.run.status = out.row.status;
      } catch (const std::exception& e) {
        out.problem = "run " + out.row.execution_id + ": " + e.what();
        out.run = results::Run();
      } catch (...) {
        out.problem = "run " + out.row.execution_id + ": its document could not be read";
        out.run = results::Run();
      }
      return out;
    });
    if (decoder.pending() >= 2 * threads) hand_over_oldest();
  }
  while (decoder.pending() > 0) hand_over_oldest();
}

Store::LabelMedians Store::label_medians(const std::string& label, int last, const std::string& except_id,
                                         bool use_flagged) {
  const char* const newest =
      "SELECT id, execution_timestamp FROM runs WHERE execution_label = $1 AND execution_id <> $2 "
      "ORDER BY execution_timestamp DESC, id DESC LIMIT $3";
  const std::vector<SqlValue> params = {text(label), text(except_id), std::int64_t{last}};
  LabelMedians out;
  const auto count = db_->query(fmt::format("SELECT COUNT(*) FROM ({}) r", newest), params);
  out.runs = count.empty() || count[0].empty() || !count[0][0] ? 0 : static_cast<std::size_t>(std::stoll(*count[0][0]));
  const auto rows =
      db_->query(fmt::format("SELECT s.case_name, s.metric, {} FROM ({}) r JOIN series_points p ON p.run_id = r.id "
                             "JOIN series s ON s.id = p.series_id ORDER BY r.execution_timestamp DESC, r.id DESC",
                             use_flagged ? "p.value_all" : "p.value", newest),
                 params);
  for (const auto& r : rows) {
    if (!r[2]) {  // every trial of that run disturbed: no undisturbed median
      ++out.all_disturbed[{r[0].value_or(""), r[1].value_or("")}];
      continue;
    }
    out.medians[{r[0].value_or(""), r[1].value_or("")}].push_back(std::stod(*r[2]));
  }
  return out;
}

ResolvedId Store::resolve_id(const std::string& prefix) {
  ResolvedId out;
  const auto exact = db_->query("SELECT execution_id FROM runs WHERE execution_id = $1", {text(prefix)});
  if (!exact.empty()) {
    out.matches.push_back(exact[0][0].value_or(""));
    return out;
  }
  // substr rather than LIKE: an id may hold % or _, which LIKE would read as wildcards. The casts tell
  // PostgreSQL the parameter's type (length() has several).
  const auto rows = db_->query(
      "SELECT execution_id FROM runs WHERE substr(execution_id, 1, length(CAST($1 AS TEXT))) = CAST($1 AS TEXT) "
      "ORDER BY execution_id LIMIT 10",
      {text(prefix)});
  for (const auto& r : rows) out.matches.push_back(r[0].value_or(""));
  return out;
}

std::vector<std::string> Store::prune(const std::string& label, int keep_last, std::string* vacuum_problem) {
  std::vector<std::string> deleted;
  db_->begin();
  try {
    std::vector<std::string> labels;
    if (!label.empty()) {
      labels.push_back(text(label));
    } else {
      for (const auto& r : db_->query("SELECT DISTINCT execution_label FROM runs ORDER BY execution_label")) {
        labels.push_back(r[0].value_or(""));
      }
    }
    for (const auto& l : labels) {
      // All rows after the first keep_last: SQLite needs a LIMIT before an OFFSET, PostgreSQL takes none.
      const char* all_after = db_->dialect() == "sqlite" ? " LIMIT -1 OFFSET $2" : " OFFSET $2";
      const auto old = db_->query(std::string("SELECT id, execution_id FROM runs WHERE execution_label = $1 "
                                              "ORDER BY execution_timestamp DESC, id DESC") +
                                      all_after,
                                  {l, std::int64_t{keep_last}});
      for (auto it = old.rbegin(); it != old.rend(); ++it) {
        db_->exec("DELETE FROM runs WHERE id = $1", {std::stoll((*it)[0].value_or("0"))});
        deleted.push_back((*it)[1].value_or(""));
      }
    }
    db_->commit();
  } catch (...) {
    db_->rollback();
    throw;
  }
  // Deleted rows leave free pages in SQLite's file; VACUUM gives them back (outside any transaction).
  if (!deleted.empty() && db_->dialect() == "sqlite") {
    try {
      db_->exec("VACUUM");
    } catch (const HistoryError& e) {
      if (vacuum_problem != nullptr) *vacuum_problem = e.what();
    }
  }
  return deleted;
}

}  // namespace perfzero::history
