#pragma once
// What every subcommand's flag parser shares; CLI11 stays inside cli/.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace perfzero::cli {

// Runs CLI11 on a subcommand's own flags: --help becomes the returned text, a parse error a
// UsageError naming the command and pointing at its --help.
std::optional<std::string> parse_or_help(CLI::App& app, int argc, const char* const* argv);

// While describe_commands (cli/describe.hpp) walks the commands, every parser hands it its App at
// the point where it would parse: this throws the App's description instead. A no-op otherwise.
void describe_instead_of_parsing(const CLI::App& app);

}  // namespace perfzero::cli
