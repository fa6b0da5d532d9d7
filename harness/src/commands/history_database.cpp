#include "commands/history_database.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "common/errors.hpp"

namespace perfzero::commands {

bool is_database_url(const std::string& db) { return db.find("://") != std::string::npos; }

history::Store open_history_for_reading(const std::string& db, std::string_view who, std::string_view hint) {
  if (!is_database_url(db) && !std::filesystem::exists(db)) {
    throw UsageError(fmt::format("{}: no results database at {}{}", who, db, hint));
  }
  return history::Store(db);
}

}  // namespace perfzero::commands
