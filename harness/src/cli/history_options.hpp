#pragma once
// The flags of `perfzero history` (docs/history.md).
#include <optional>
#include <string>
#include <vector>

namespace perfzero::cli {

inline constexpr const char* kDefaultHistoryDb = "results/history.sqlite";

struct HistoryOptions {
  std::string action;                  // ingest, list, show
  std::string db = kDefaultHistoryDb;  // a SQLite file or a postgresql:// URL
  std::vector<std::string> runs;       // ingest: run directories
  bool partial = false;                // ingest: a run still running (or killed) too, as it stands
  std::string execution_id;            // show
  std::string label;                   // list: only this execution label
  int limit = 50;                      // list
  std::string format = "text";         // list, show: text or json
};

// Parses `perfzero history` flags (argv[0] is "history"). Returns the help text for --help; throws
// UsageError naming the flag for anything else it cannot take.
std::optional<std::string> parse_history_flags(int argc, const char* const* argv, HistoryOptions& out);

}  // namespace perfzero::cli
