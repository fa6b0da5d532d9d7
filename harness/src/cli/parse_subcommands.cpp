// perfzero's subcommands, Git-style: `perfzero COMMAND [FLAGS]`, with `run` the default so that
// PerfZero command lines (`perfzero --benchmark_methods=...`) keep working unchanged.
#include <array>
#include <string_view>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/cli_app.hpp"
#include "cli/describe.hpp"
#include "cli/options.hpp"
#include "common/errors.hpp"
#include "common/text.hpp"

namespace perfzero::cli {

namespace {

InvocationResult ready(decltype(Invocation::command) command) { return {Invocation{std::move(command)}, "", 0}; }

InvocationResult help(std::string text) { return {std::nullopt, std::move(text), to_int(ExitCode::all_succeeded)}; }

// `run`, also the default: --list makes it an alias of `list`.
InvocationResult parse_run(int argc, const char* const* argv, bool top_level) {
  auto parsed = parse_command_line(argc, argv, top_level);
  if (parsed.version) return ready(VersionOptions{});
  if (!parsed.options) return {std::nullopt, std::move(parsed.message), parsed.exit_code};
  if (parsed.options->list) return ready(ListOptions{});
  return ready(std::move(*parsed.options));
}

InvocationResult parse_list(int argc, const char* const* argv) {
  CLI::App app{
      "Lists every method the installed workers offer, with its parameters; with --python_path, also the "
      "Python classes' benchmark* methods found there.",
      "perfzero list"};
  std::string format = "text";
  PythonFlags python;
  add_python_flags(app, python, false);
  app.add_option("--format", format,
                 "text (default), json (the catalog with parameters and workers) or names (one method a line)")
      ->check(CLI::IsMember({"text", "json", "names"}));
  if (auto text = parse_or_help(app, argc, argv)) return help(*text);
  (void)python_settings_of(python);
  return ready(ListOptions{format == "json", format == "names", std::move(python)});
}

InvocationResult parse_validate(int argc, const char* const* argv) {
  CLI::App app{
      "Loads suite files, checks them against the installed methods and prints the size of the plan "
      "(methods, cases, trials, child runs). Nothing runs. Exit 0 when valid, 2 otherwise.",
      "perfzero validate"};
  ValidateOptions options;
  app.add_option("SUITE", options.suites, "YAML suite file (docs/suites.md)")->required()->type_name("FILE");
  if (auto text = parse_or_help(app, argc, argv)) return help(*text);
  return ready(std::move(options));
}

InvocationResult parse_doctor(int argc, const char* const* argv) {
  CLI::App app{
      "Checks whether this machine is a good place to measure, with the fix for each finding: CPU governor "
      "and boost, SMT, steal time and host load, a noise score (fixed compute, memory and file kernels "
      "run again and again), ASLR, transparent huge pages, swap, perf_event_paranoid, the container's "
      "limits, and NVIDIA GPUs through NVML. About 20 s (--quick: 5 s). Exit 0 when nothing needs fixing, "
      "1 with warnings, 2 for bad flags (docs/doctor.md).",
      "perfzero doctor"};
  DoctorOptions options;
  std::string format = "text";
  app.add_flag("--quick", options.quick, "About 5 s: a shorter load window and fewer noise rounds");
  app.add_option("--format", format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  if (auto text = parse_or_help(app, argc, argv)) return help(*text);
  options.json = format == "json";
  return ready(options);
}

InvocationResult parse_completion(int argc, const char* const* argv) {
  CLI::App app{
      "Prints a completion script for bash, zsh or fish, made from the same definitions as --help; method "
      "names are completed from `perfzero list --format=names`. bash: `source <(perfzero completion bash)`, "
      "or save it as /usr/share/bash-completion/completions/perfzero; zsh: save it as _perfzero in a "
      "directory of $fpath; fish: save it as ~/.config/fish/completions/perfzero.fish.",
      "perfzero completion"};
  CompletionOptions options;
  app.add_option("SHELL", options.shell, "bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  if (auto text = parse_or_help(app, argc, argv)) return help(*text);
  return ready(std::move(options));
}

InvocationResult parse_manpage(int argc, const char* const* argv) {
  CLI::App app{"Prints the perfzero(1) manual page as roff (man -l <(perfzero manpage) reads it).", "perfzero manpage"};
  if (auto text = parse_or_help(app, argc, argv)) return help(*text);
  return ready(ManPageOptions{});
}

// The commands that own their flags (report, compare, ab, history): each parser fills its options.
template <typename Options, std::optional<std::string> (*parse)(int, const char* const*, Options&)>
InvocationResult parse_own_flags(int argc, const char* const* argv) {
  Options options;
  if (auto text = parse(argc, argv, options)) return help(*text);
  return ready(std::move(options));
}

struct CommandInfo {
  std::string_view name;
  std::string_view summary;
  // Sees "perfzero COMMAND" as its program name and the rest as its flags.
  InvocationResult (*parse)(int argc, const char* const* argv);
};

// Every subcommand: its name, its line in --help, its parser.
const std::array kCommands{
    CommandInfo{"run", "Run benchmark methods and write reports (the default command)",
                [](int argc, const char* const* argv) { return parse_run(argc, argv, false); }},
    CommandInfo{"list", "List the methods the installed workers offer (--format=text|json|names)", parse_list},
    CommandInfo{"validate", "Check suite files against the methods and print the plan's size", parse_validate},
    CommandInfo{"doctor", "Check this machine before measuring, with the fix for each finding; exit 1 on warnings",
                parse_doctor},
    CommandInfo{"report", "Price finished runs across instance types (Markdown, CSV, JSON, HTML)",
                parse_own_flags<ReportOptions, parse_report_flags>},
    CommandInfo{"compare",
                "Compare two runs (or a run with the history) per method; exit 1 on a slowdown or a candidate "
                "that measured nothing, 5 when undecided",
                parse_own_flags<CompareOptions, parse_compare_flags>},
    CommandInfo{"ab", "Run a baseline and a candidate interleaved until each metric is decided; exit as compare",
                parse_own_flags<AbOptions, parse_ab_flags>},
    CommandInfo{"history",
                "Store runs in a results database (SQLite or PostgreSQL); list, show, change points, a static site",
                parse_own_flags<HistoryOptions, parse_history_flags>},
    CommandInfo{"export",
                "Send a finished run to an MLflow tracking server: what was not sent yet; exit 6 when something "
                "still was not",
                parse_own_flags<ExportOptions, parse_export_flags>},
    CommandInfo{"completion", "Print a completion script for bash, zsh or fish", parse_completion},
    CommandInfo{"manpage", "Print the perfzero(1) manual page as roff", parse_manpage},
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

}  // namespace

std::optional<std::string> parse_or_help(CLI::App& app, int argc, const char* const* argv) {
  describe_instead_of_parsing(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return app.help();
  } catch (const CLI::ParseError& e) {
    throw UsageError(fmt::format("{}: {} ({} --help lists the flags)", app.get_name(), e.what(), app.get_name()));
  }
  return std::nullopt;
}

std::vector<CommandDoc> describe_commands() {
  std::vector<CommandDoc> out;
  for (const auto& c : kCommands) {
    const std::string program = "perfzero " + std::string(c.name);
    CommandDoc doc = detail::describe_one(program.c_str(), c.parse);
    doc.name = c.name;
    doc.summary = c.summary;
    out.push_back(std::move(doc));
  }
  return out;
}

std::string commands_help() {
  std::string out = "Commands (perfzero COMMAND --help for each):\n";
  for (const auto& c : kCommands) out += fmt::format("  {:<10} {}\n", c.name, c.summary);
  return out;
}

InvocationResult parse_invocation(int argc, const char* const* argv) {
  if (argc < 2 || !looks_like_command(argv[1])) return parse_run(argc, argv, /*top_level=*/true);
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
  return info->parse(argc - 1, argv + 1);
}

}  // namespace perfzero::cli
