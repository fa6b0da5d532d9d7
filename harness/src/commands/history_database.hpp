#pragma once
// The results history as the commands that only read it open it (report --history, compare --history,
// the history commands but ingest): a mistyped path is an error naming it, never a new empty database.
#include <string>
#include <string_view>

#include "history/store.hpp"

namespace perfzero::commands {

bool is_database_url(const std::string& db);

// Throws UsageError "WHO: no results database at DB" (with `hint` after it) when DB is a path that does
// not exist; opens it otherwise (a URL is opened as given).
history::Store open_history_for_reading(const std::string& db, std::string_view who, std::string_view hint = "");

}  // namespace perfzero::commands
