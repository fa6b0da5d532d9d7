#pragma once
// The flags of `perfzero compare` (docs/cli.md).
#include <optional>
#include <string>
#include <vector>

namespace perfzero::cli {

struct CompareOptions {
  std::vector<std::string> args;  // every word after the command, until its own flags are defined
};

// Parses `perfzero compare` flags (argv[0] is "compare"). Returns the help text for --help; throws
// UsageError naming the flag for anything else it cannot take.
std::optional<std::string> parse_compare_flags(int argc, const char* const* argv, CompareOptions& out);

}  // namespace perfzero::cli
