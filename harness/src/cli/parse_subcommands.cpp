// perfzero's subcommands, Git-style: `perfzero COMMAND [FLAGS]`, with `run` the default so that
// PerfZero command lines (`perfzero --benchmark_methods=...`) keep working unchanged.
#include <array>
#include <string_view>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/cli_app.hpp"
#include "cli/options.hpp"
#include "common/errors.hpp"
#include "common/text.hpp"

namespace perfzero::cli {

namespace {

struct CommandInfo {
  Command command;
  std::string_view name;
  std::string_view summary;
};

constexpr std::array kCommands{
    CommandInfo{Command::run, "run", "Run benchmark methods and write reports (the default command)"},
    CommandInfo{Command::list, "list", "List the methods the installed workers offer (--format=text|json)"},
    CommandInfo{Command::validate, "validate", "Check suite files against the methods and print the plan's size"},
    CommandInfo{Command::report, "report", "Price finished runs across instance types (Markdown, CSV, JSON, HTML)"},
    CommandInfo{Command::compare, "compare",
                "Compare two runs (or a run with the history) per method; exit 1 on a slowdown"},
    CommandInfo{Command::ab, "ab",
                "Run a baseline and a candidate interleaved until each metric is decided; exit 1 on a slowdown"},
    CommandInfo{Command::history, "history",
                "Store runs in a results database (SQLite or PostgreSQL); list and show them"},
};

// A stray word that looks like a method or a file goes to `run`, whose message says where it belongs.
bool looks_like_command(std::string_view arg) {
  return !arg.empty() && arg.front() != '-' && arg.find_first_of("./=") == std::string_view::npos;
}

const CommandInfo* find_command(std::string_view name) {
  for (const auto& c : kCommands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

InvocationResult parse_list(int argc, const char* const* argv) {
  CLI::App app{"Lists every method the installed workers offer, with its parameters.", "perfzero list"};
  std::string format = "text";
  app.add_option("--format", format, "text (default) or json: the catalog with parameters and workers")
      ->check(CLI::IsMember({"text", "json"}));
  if (auto help = parse_or_help(app, argc, argv)) return {std::nullopt, *help, to_int(ExitCode::all_succeeded)};
  Invocation inv;
  inv.command = Command::list;
  inv.list.json = format == "json";
  return {std::move(inv), "", 0};
}

InvocationResult parse_validate(int argc, const char* const* argv) {
  CLI::App app{
      "Loads suite files, checks them against the installed methods and prints the size of the plan "
      "(methods, cases, trials, child runs). Nothing runs. Exit 0 when valid, 2 otherwise.",
      "perfzero validate"};
  Invocation inv;
  inv.command = Command::validate;
  app.add_option("SUITE", inv.validate.suites, "YAML suite file (docs/suites.md)")->required()->type_name("FILE");
  if (auto help = parse_or_help(app, argc, argv)) return {std::nullopt, *help, to_int(ExitCode::all_succeeded)};
  return {std::move(inv), "", 0};
}

// The commands that own their flags (report, compare, history): each parser fills its part.
template <typename Options>
InvocationResult parse_own_flags(Command command, Options Invocation::*part,
                                 std::optional<std::string> (*parse)(int, const char* const*, Options&), int argc,
                                 const char* const* argv) {
  Invocation inv;
  inv.command = command;
  if (auto help = parse(argc, argv, inv.*part)) return {std::nullopt, *help, to_int(ExitCode::all_succeeded)};
  return {std::move(inv), "", 0};
}

}  // namespace

std::optional<std::string> parse_or_help(CLI::App& app, int argc, const char* const* argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return app.help();
  } catch (const CLI::ParseError& e) {
    throw UsageError(fmt::format("{}: {} ({} --help lists the flags)", app.get_name(), e.what(), app.get_name()));
  }
  return std::nullopt;
}

std::string commands_help() {
  std::string out = "Commands (perfzero COMMAND --help for each):\n";
  for (const auto& c : kCommands) out += fmt::format("  {:<10} {}\n", c.name, c.summary);
  return out;
}

InvocationResult parse_invocation(int argc, const char* const* argv) {
  if (argc < 2 || !looks_like_command(argv[1])) {
    auto parsed = parse_command_line(argc, argv, /*top_level=*/true);
    if (!parsed.options) return {std::nullopt, std::move(parsed.message), parsed.exit_code};
    Invocation inv;
    inv.run = std::move(*parsed.options);
    inv.command = inv.run.list ? Command::list : Command::run;  // --list: an alias of `list`
    return {std::move(inv), "", 0};
  }
  const CommandInfo* info = find_command(argv[1]);
  if (info == nullptr) {
    std::vector<std::string> names;
    names.reserve(kCommands.size());
    for (const auto& c : kCommands) names.emplace_back(c.name);
    throw UsageError(
        fmt::format("unknown command '{}'{} (perfzero --help lists the commands; methods go in "
                    "--benchmark_methods=...)",
                    argv[1], text::did_you_mean(argv[1], names)));
  }
  // The subcommand's parser sees "perfzero COMMAND" as its program name and the rest as its flags.
  switch (info->command) {
    case Command::run: {
      auto parsed = parse_command_line(argc - 1, argv + 1);
      if (!parsed.options) return {std::nullopt, std::move(parsed.message), parsed.exit_code};
      Invocation inv;
      inv.run = std::move(*parsed.options);
      inv.command = inv.run.list ? Command::list : Command::run;
      return {std::move(inv), "", 0};
    }
    case Command::list:
      return parse_list(argc - 1, argv + 1);
    case Command::validate:
      return parse_validate(argc - 1, argv + 1);
    case Command::report:
      return parse_own_flags(Command::report, &Invocation::report, parse_report_flags, argc - 1, argv + 1);
    case Command::compare:
      return parse_own_flags(Command::compare, &Invocation::compare, parse_compare_flags, argc - 1, argv + 1);
    case Command::ab:
      return parse_own_flags(Command::ab, &Invocation::ab, parse_ab_flags, argc - 1, argv + 1);
    case Command::history:
      return parse_own_flags(Command::history, &Invocation::history, parse_history_flags, argc - 1, argv + 1);
  }
  return {std::nullopt, "", to_int(ExitCode::internal_error)};
}

}  // namespace perfzero::cli
