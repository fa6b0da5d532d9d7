// Which backend a --db / --history value names.
#include <string_view>

#include "history/sql_connection.hpp"

namespace perfzero::history {

std::unique_ptr<SqlConnection> open_database(const std::string& db) {
  const std::string_view v(db);
  if (v.starts_with("postgresql://") || v.starts_with("postgres://")) return open_postgresql(db);
  return open_sqlite(db);
}

}  // namespace perfzero::history
