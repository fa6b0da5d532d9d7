#pragma once
// The flags of `perfzero history` (docs/cli.md).
#include <optional>
#include <string>
#include <vector>

namespace perfzero::cli {

struct HistoryOptions {
  std::vector<std::string> args;  // every word after the command, until its own flags are defined
};

// Parses `perfzero history` flags (argv[0] is "history"). Returns the help text for --help; throws
// UsageError naming the flag for anything else it cannot take.
std::optional<std::string> parse_history_flags(int argc, const char* const* argv, HistoryOptions& out);

}  // namespace perfzero::cli
