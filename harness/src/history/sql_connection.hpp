#pragma once
// The one interface both results-database backends implement (SQLite, PostgreSQL): statements with
// $1..$n parameters, rows of text, and transactions. Everything above it (schema, migrations,
// ingest, queries) is written once, in history/store.cpp. Library types stay in the backends' files.
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace perfzero::history {

// A database that cannot be opened, read or written: the message names the database and the
// statement's purpose.
class HistoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bytes for a BLOB (SQLite) or BYTEA (PostgreSQL) column; read back as the same bytes in a row.
struct SqlBlob {
  std::string bytes;
};
using SqlValue = std::variant<std::int64_t, double, std::string, SqlBlob>;
using SqlRow = std::vector<std::optional<std::string>>;  // nullopt for NULL; a blob column's raw bytes

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;
  // Runs one statement; its rows, if any. `sql` uses $1..$n for `params`.
  virtual std::vector<SqlRow> query(const std::string& sql, const std::vector<SqlValue>& params = {}) = 0;
  void exec(const std::string& sql, const std::vector<SqlValue>& params = {}) { query(sql, params); }
  virtual void begin() = 0;
  // A transaction that only reads, and sees one state of the database throughout (SQLite's WAL
  // snapshot: writers go on; PostgreSQL's REPEATABLE READ); ended by commit() or rollback().
  virtual void begin_read() = 0;
  virtual void commit() = 0;
  virtual void rollback() = 0;
  // "sqlite" or "postgresql": the few statements that differ (an auto-increment key, a blob's type) ask.
  virtual std::string dialect() const = 0;
  virtual std::string describe() const = 0;  // the file or the URL without its password
};

std::unique_ptr<SqlConnection> open_sqlite(const std::string& path);
std::unique_ptr<SqlConnection> open_postgresql(const std::string& url);

// A postgresql:// (or postgres://) URL opens PostgreSQL; anything else is a SQLite file.
std::unique_ptr<SqlConnection> open_database(const std::string& db);

}  // namespace perfzero::history
