#pragma once
// How `compare` and `ab` print a comparison: the table (text, coloured on a terminal), Markdown or
// JSON on stdout, and the advice a person needs beside a JSON document on stderr.
#include <string>

#include "compare/compare_runs.hpp"

namespace perfzero::compare {

// "always", "never", or "auto": on a terminal unless NO_COLOR is set.
bool use_colour(const std::string& choice);

// Prints the report in `format` (text, markdown, json) on stdout. False, with one line on stderr,
// when stdout refused it (closed by its reader, a full disk): the caller's exit is then 4.
bool print_report(const compare::RunComparison& report, const std::string& format, const std::string& colour);

}  // namespace perfzero::compare
