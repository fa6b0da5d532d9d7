// The SQLite backend: a file, with statements prepared once and reused (ingest runs thousands).
#include <sqlite3.h>

#include <map>

#include <fmt/format.h>

#include "history/sql_connection.hpp"

namespace perfzero::history {

namespace {

// $1..$n (PostgreSQL's spelling, used by every statement) becomes ?1..?n.
std::string to_sqlite_params(const std::string& sql) {
  std::string out = sql;
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '$' && out[i + 1] >= '0' && out[i + 1] <= '9') out[i] = '?';
  }
  return out;
}

class SqliteConnection : public SqlConnection {
 public:
  explicit SqliteConnection(std::string path) : path_(std::move(path)) {
    const int rc = sqlite3_open_v2(path_.c_str(), &db_,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, nullptr);
    if (rc != SQLITE_OK) {
      const std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
      sqlite3_close(db_);
      throw HistoryError(fmt::format("{}: cannot open the results database: {}", path_, why));
    }
    sqlite3_busy_timeout(db_, 30000);  // another perfzero ingesting into the same file waits its turn
    try {
      // run(), not query(): a constructor does not call virtual functions.
      run("PRAGMA foreign_keys = ON", {});
      // WAL: readers (list, compare --history) never block an ingest; FULL keeps a commit durable.
      run("PRAGMA journal_mode = WAL", {});
      run("PRAGMA synchronous = FULL", {});
    } catch (...) {
      // A file that is not a database fails here, and no destructor runs for a throwing constructor.
      close();
      throw;
    }
  }
  ~SqliteConnection() override { close(); }
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  std::vector<SqlRow> query(const std::string& sql, const std::vector<SqlValue>& params) override {
    return run(sql, params);
  }
  void begin() override { run("BEGIN IMMEDIATE", {}); }
  // Deferred: the snapshot is taken at the first read; in WAL mode an ingest meanwhile is not blocked.
  void begin_read() override { run("BEGIN DEFERRED", {}); }
  void commit() override { run("COMMIT", {}); }
  void rollback() override { run("ROLLBACK", {}); }
  std::string dialect() const override { return "sqlite"; }
  std::string describe() const override { return path_; }

 private:
  void close() noexcept {
    for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
    statements_.clear();
    sqlite3_close(db_);
    db_ = nullptr;
  }

  std::vector<SqlRow> run(const std::string& sql, const std::vector<SqlValue>& params) {
    sqlite3_stmt* stmt = prepared(sql);
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    for (std::size_t i = 0; i < params.size(); ++i) bind(stmt, static_cast<int>(i + 1), params[i], sql);
    std::vector<SqlRow> rows;
    for (;;) {
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) fail(sql);
      SqlRow row;
      const int columns = sqlite3_column_count(stmt);
      for (int c = 0; c < columns; ++c) {
        // A blob's bytes as they are (column_text would stop at nothing, but hands out the same bytes).
        const auto* text = sqlite3_column_type(stmt, c) == SQLITE_BLOB
                               ? static_cast<const char*>(sqlite3_column_blob(stmt, c))
                               : reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
        if (text == nullptr) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))));
        }
      }
      rows.push_back(std::move(row));
    }
    sqlite3_reset(stmt);
    return rows;
  }
  sqlite3_stmt* prepared(const std::string& sql) {
    if (const auto it = statements_.find(sql); it != statements_.end()) return it->second;
    sqlite3_stmt* stmt = nullptr;
    const std::string text = to_sqlite_params(sql);
    if (sqlite3_prepare_v2(db_, text.c_str(), static_cast<int>(text.size()), &stmt, nullptr) != SQLITE_OK) fail(sql);
    statements_.emplace(sql, stmt);
    return stmt;
  }
  void bind(sqlite3_stmt* stmt, int index, const SqlValue& value, const std::string& sql) {
    int rc = SQLITE_OK;
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
      rc = sqlite3_bind_int64(stmt, index, *i);
    } else if (const auto* d = std::get_if<double>(&value)) {
      rc = sqlite3_bind_double(stmt, index, *d);
    } else if (const auto* b = std::get_if<SqlBlob>(&value)) {
      rc = sqlite3_bind_blob64(stmt, index, b->bytes.data(), b->bytes.size(), SQLITE_TRANSIENT);
    } else {
      const auto& s = std::get<std::string>(value);
      rc = sqlite3_bind_text(stmt, index, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    }
    if (rc != SQLITE_OK) fail(sql);
  }
  [[noreturn]] void fail(const std::string& sql) {
    const std::string first_line = sql.substr(0, sql.find('\n'));
    throw HistoryError(fmt::format("{}: {} (in: {})", path_, sqlite3_errmsg(db_), first_line.substr(0, 80)));
  }

  std::string path_;
  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*> statements_;
};

}  // namespace

std::unique_ptr<SqlConnection> open_sqlite(const std::string& path) { return std::make_unique<SqliteConnection>(path); }

}  // namespace perfzero::history
