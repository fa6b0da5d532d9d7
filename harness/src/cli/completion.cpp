#include "cli/completion.hpp"

#include <fmt/format.h>

#include "common/text.hpp"

namespace perfzero::cli {

namespace {

// The flag whose values are method names (run's and ab's).
bool takes_methods(const FlagDoc& f) {
  for (const auto& n : f.names) {
    if (n == "--benchmark_methods") return true;
  }
  return false;
}

std::vector<std::string> long_names(const FlagDoc& f) {
  std::vector<std::string> out;
  for (const auto& n : f.names) {
    if (n.starts_with("--")) out.push_back(n);
  }
  return out;
}

// One line of a flag's description, for the shells that show one.
std::string first_line(const std::string& description) {
  std::string line = description.substr(0, description.find('\n'));
  if (line.size() > 90) line = line.substr(0, 87) + "...";
  return line;
}

std::string single_quoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// bash: the word being completed is taken from COMP_LINE, since bash splits "--flag=value" at "=".
std::string bash(const std::vector<CommandDoc>& commands) {
  std::string names;
  for (const auto& c : commands) names += (names.empty() ? "" : " ") + c.name;
  std::string flags_by_command;
  std::string choices;
  for (const auto& c : commands) {
    std::string words;
    for (const auto& f : c.flags) {
      for (const auto& n : long_names(f)) words += " " + n + (f.value.empty() ? "" : "=");
      for (const auto& n : long_names(f)) {
        if (takes_methods(f)) {
          choices += fmt::format(
              "    '{} {}') _perfzero_values \"$(command perfzero list --format=names 2>/dev/null)\" ;;\n", c.name, n);
        } else if (!f.choices.empty()) {
          choices += fmt::format("    '{} {}') _perfzero_values '{}' ;;\n", c.name, n, text::join(f.choices, " "));
        }
      }
    }
    std::string subs;
    for (const auto& s : c.subcommands) subs += " " + s.name;
    for (const auto& p : c.positional_choices) subs += " " + p;
    flags_by_command += fmt::format("    {}) words='{}{}' ;;\n", c.name, subs.empty() ? "" : subs.substr(1) + " ",
                                    words.empty() ? "" : words.substr(1));
  }
  return fmt::format(
      R"bash(# bash completion for perfzero (perfzero completion bash; made from the same definitions as --help)
_perfzero_values() {{
  local value=${{_perfzero_cur#*=}}
  COMPREPLY=($(compgen -W "$1" -- "$value"))
}}
_perfzero() {{
  local line=${{COMP_LINE:0:COMP_POINT}} cmd=run words i
  _perfzero_cur=${{line##*[[:space:]]}}
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${{COMP_WORDS[i]}} in
      {commands_pattern}) cmd=${{COMP_WORDS[i]}}; break ;;
    esac
  done
  if [[ $_perfzero_cur == --*=* ]]; then
    case "$cmd ${{_perfzero_cur%%=*}}" in
{choices}    esac
    return 0
  fi
  case $cmd in
{flags}  esac
  if [[ $cmd == run && $_perfzero_cur != -* ]]; then
    words="{names} $words"
  fi
  COMPREPLY=($(compgen -W "$words" -- "$_perfzero_cur"))
  if [[ ${{#COMPREPLY[@]}} -eq 1 && ${{COMPREPLY[0]}} == *= ]]; then
    compopt -o nospace 2>/dev/null
  fi
  return 0
}}
complete -o default -F _perfzero perfzero
)bash",
      fmt::arg("commands_pattern", text::join(text::split(names, ' '), "|")), fmt::arg("choices", choices),
      fmt::arg("flags", flags_by_command), fmt::arg("names", names));
}

// zsh: brackets, colons and backslashes are _arguments' own syntax.
std::string zsh_escaped(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '[' || c == ']' || c == ':' || c == '\\') out += '\\';
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out;
}

std::string zsh_arguments(const CommandDoc& c) {
  std::string out;
  for (const auto& f : c.flags) {
    for (const auto& n : long_names(f)) {
      const std::string what = zsh_escaped(first_line(f.description));
      if (f.value.empty()) {
        out += fmt::format("      '{}[{}]' \\\n", n, what);
      } else if (takes_methods(f)) {
        out += fmt::format("      '{}=[{}]:method:_perfzero_methods' \\\n", n, what);
      } else if (!f.choices.empty()) {
        out += fmt::format("      '{}=[{}]:value:({})' \\\n", n, what, text::join(f.choices, " "));
      } else {
        out += fmt::format("      '{}=[{}]:{}:_files' \\\n", n, what, zsh_escaped(f.value));
      }
    }
  }
  if (!c.positional_choices.empty()) {
    out += fmt::format("      '1:{}:({})' \\\n", zsh_escaped(c.positionals.front()),
                       text::join(c.positional_choices, " "));
  } else if (!c.subcommands.empty()) {
    std::string subs;
    for (const auto& s : c.subcommands) subs += (subs.empty() ? "" : " ") + s.name;
    out += fmt::format("      '1:command:({})' \\\n", subs);
  } else if (!c.positionals.empty()) {
    out += "      '*:file:_files' \\\n";
  }
  return out;
}

std::string zsh(const std::vector<CommandDoc>& commands) {
  std::string described;
  std::string cases;
  for (const auto& c : commands) {
    described += fmt::format("    '{}:{}'\n", c.name, zsh_escaped(c.summary));
    cases += fmt::format("    {})\n      _arguments -s \\\n{}      && return 0 ;;\n", c.name, zsh_arguments(c));
  }
  return fmt::format(R"zsh(#compdef perfzero
# zsh completion for perfzero (perfzero completion zsh; made from the same definitions as --help)
_perfzero_methods() {{
  local -a methods
  methods=(${{(f)"$(command perfzero list --format=names 2>/dev/null)"}})
  compadd -a methods
}}
_perfzero() {{
  local -a commands
  commands=(
{described}  )
  local cmd=run
  if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
    _describe -t commands 'perfzero command' commands
  fi
  if (( CURRENT > 2 )) && (( ${{+commands[(r)$words[2]:*]}} )); then
    cmd=$words[2]
    shift words
    (( CURRENT-- ))
  fi
  case $cmd in
{cases}  esac
}}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _perfzero "$@"
else
  compdef _perfzero perfzero
fi
)zsh",
                     fmt::arg("described", described), fmt::arg("cases", cases));
}

std::string fish(const std::vector<CommandDoc>& commands) {
  std::string names;
  for (const auto& c : commands) names += (names.empty() ? "" : " ") + c.name;
  std::string out = fmt::format(
      "# fish completion for perfzero (perfzero completion fish; made from the same definitions as --help)\n"
      "complete -c perfzero -f\n"
      "function __perfzero_command\n"
      "    set -l words (commandline -opc)\n"
      "    for w in $words[2..-1]\n"
      "        if contains -- $w {}\n"
      "            echo $w\n"
      "            return\n"
      "        end\n"
      "    end\n"
      "    echo run\n"
      "end\n",
      names);
  for (const auto& c : commands) {
    out +=
        fmt::format("complete -c perfzero -n '__fish_use_subcommand' -a {} -d {}\n", c.name, single_quoted(c.summary));
  }
  for (const auto& c : commands) {
    const std::string when = fmt::format("-n 'test (__perfzero_command) = {}'", c.name);
    for (const auto& f : c.flags) {
      for (const auto& n : long_names(f)) {
        std::string line = fmt::format("complete -c perfzero {} -l {}", when, n.substr(2));
        if (takes_methods(f)) {
          line += " -x -a '(command perfzero list --format=names 2>/dev/null)'";
        } else if (!f.choices.empty()) {
          line += " -x -a " + single_quoted(text::join(f.choices, " "));
        } else if (!f.value.empty()) {
          line += " -r -F";
        }
        out += line + " -d " + single_quoted(first_line(f.description)) + "\n";
      }
    }
    for (const auto& s : c.subcommands) {
      out +=
          fmt::format("complete -c perfzero {} -a {} -d {}\n", when, s.name, single_quoted(first_line(s.description)));
    }
    for (const auto& p : c.positional_choices) out += fmt::format("complete -c perfzero {} -a {}\n", when, p);
    if (c.positional_choices.empty() && !c.positionals.empty())
      out += fmt::format("complete -c perfzero {} -F\n", when);
  }
  return out;
}

// roff: a leading dot or quote would be a request, a backslash an escape, a hyphen may break.
std::string roff(const std::string& s) {
  std::string out;
  bool line_start = true;
  for (const char c : s) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

void man_flags(std::string& out, const CommandDoc& c) {
  for (const auto& f : c.flags) {
    std::string names;
    for (const auto& n : f.names) names += (names.empty() ? "" : ", ") + ("\\fB" + roff(n) + "\\fR");
    out +=
        ".TP\n" + names + (f.value.empty() ? "" : "=\\fI" + roff(f.value) + "\\fR") + "\n" + roff(f.description) + "\n";
  }
}

}  // namespace

std::string completion_script(const std::string& shell, const std::vector<CommandDoc>& commands) {
  if (shell == "bash") return bash(commands);
  if (shell == "zsh") return zsh(commands);
  return fish(commands);
}

std::string man_page(const std::vector<CommandDoc>& commands, const std::string& version) {
  // Left-adjusted: flags' long words and paths cannot be justified without warnings.
  std::string out = fmt::format(".TH PERFZERO 1 \"\" \"perfzero {}\" \"User Commands\"\n.ad l\n", roff(version));
  out +=
      ".SH NAME\nperfzero \\- run benchmark methods in isolated child processes and write PerfZero\\-schema "
      "reports\n";
  out +=
      ".SH SYNOPSIS\n.B perfzero\n[\\fICOMMAND\\fR] [\\fIFLAGS\\fR]\n.br\n.B perfzero\n"
      "\\fB\\-\\-benchmark_methods\\fR=\\fIMETHODS\\fR [\\fIFLAGS\\fR]\n";
  out += ".SH DESCRIPTION\n" + roff(commands.front().description) +
         "\n.PP\nWithout a command, perfzero runs (\\fBperfzero run\\fR), so PerfZero command lines keep working. "
         "Each command's \\fB\\-\\-help\\fR says the same as this page.\n";
  out += ".SH COMMANDS\n";
  for (const auto& c : commands) {
    std::string positionals;
    for (const auto& p : c.positionals) positionals += " \\fI" + roff(p) + "\\fR";
    out += ".SS \"perfzero " + c.name + "\"\n" + roff(c.summary) + ".\n";
    if (!positionals.empty()) out += ".PP\nArguments:" + positionals + "\n";
    if (&c != &commands.front()) out += ".PP\n" + roff(c.description) + "\n";
    man_flags(out, c);
    for (const auto& s : c.subcommands) {
      out += ".PP\n\\fBperfzero " + roff(c.name + " " + s.name) + "\\fR: " + roff(s.description) + "\n";
      man_flags(out, s);
    }
  }
  out +=
      ".SH EXIT STATUS\n0: every method succeeded or was skipped; 1: a method did not succeed (or a "
      "comparison found a slowdown); 2: a bad flag, value or suite, nothing ran; 3: an internal error; 4: the "
      "output could not be written; 5: compare or ab could not decide; 6: export: something was not sent (export "
      "again later); 128+N: stopped by signal N.\n";
  out +=
      ".SH ENVIRONMENT\n.TP\n\\fBPERFZERO_WORKER_PATH\\fR\nMore directories of perfzero\\-worker\\-* "
      "executables, colon\\-separated.\n.TP\n\\fBPERFZERO_WORKER_CACHE\\fR\nWhere the workers' method lists are "
      "cached (default $XDG_CACHE_HOME/perfzero/workers); off turns the cache off.\n.TP\n\\fBNO_COLOR\\fR\n"
      "When set, compare and ab print no colour unless \\fB\\-\\-color=always\\fR.\n.TP\n"
      "\\fBMLFLOW_TRACKING_URI\\fR\nThe MLflow tracking server of \\fB\\-\\-report=+mlflow\\fR and \\fBperfzero export "
      "mlflow\\fR when no flag names one; \\fBMLFLOW_TRACKING_TOKEN\\fR, or \\fBMLFLOW_TRACKING_USERNAME\\fR and "
      "\\fBMLFLOW_TRACKING_PASSWORD\\fR, authenticate to it.\n";
  out += ".SH SEE ALSO\nThe documentation in the source tree's docs/ directory: cli.md, suites.md, reports.md.\n";
  return out;
}

}  // namespace perfzero::cli
