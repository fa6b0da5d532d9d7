#pragma once
// A command line given as one string (`perfzero ab --baseline 'CMD'`), split into arguments as a
// POSIX shell splits words, and as hyperfine does with --shell=none: whitespace separates, single
// quotes keep everything, double quotes keep all but \" \\ \$ \` and a backslash keeps the next
// character. Nothing is expanded (no variables, globs or pipes): no shell runs.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfzero::text {

// The words; nullopt with `problem` set ("an unclosed ' quote", "no command") when it cannot split.
std::optional<std::vector<std::string>> split_shell_words(std::string_view line, std::string& problem);

}  // namespace perfzero::text
