#pragma once
// What every subcommand's flag parser shares; CLI11 stays inside cli/.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace perfzero::cli {

// Runs CLI11 on a subcommand's own flags: --help becomes the returned text, a parse error a
// UsageError naming the command and pointing at its --help.
std::optional<std::string> parse_or_help(CLI::App& app, int argc, const char* const* argv);

}  // namespace perfzero::cli
