#pragma once
// The flags of `perfzero report` (docs/cli.md).
#include <optional>
#include <string>
#include <vector>

namespace perfzero::cli {

struct ReportOptions {
  std::vector<std::string> args;  // every word after the command, until its own flags are defined
};

// Parses `perfzero report` flags (argv[0] is "report"). Returns the help text for --help; throws
// UsageError naming the flag for anything else it cannot take.
std::optional<std::string> parse_report_flags(int argc, const char* const* argv, ReportOptions& out);

}  // namespace perfzero::cli
