#include "compare/comparison_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "compare/formats.hpp"

namespace perfzero::compare {

bool use_colour(const std::string& choice) {
  if (choice == "always") return true;
  if (choice == "never") return false;
  return ::isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr;
}

bool print_report(const compare::RunComparison& report, const std::string& format, const std::string& colour) {
  std::string text;
  if (format == "markdown") {
    text = compare::to_markdown(report);
  } else if (format == "json") {
    text = compare::to_json_text(report);
    // stdout stays one JSON document; the advice a person needs goes beside it.
    if (const std::string more = compare::advice(report); !more.empty()) std::fputs(more.c_str(), stderr);
  } else {
    text = compare::to_terminal(report, use_colour(colour));
  }
  errno = 0;
  if (std::fputs(text.c_str(), stdout) >= 0 && std::fflush(stdout) == 0) return true;
  std::fprintf(stderr, "perfzero: error: standard output could not be written: %s\n",
               std::strerror(errno != 0 ? errno : EIO));
  return false;
}

}  // namespace perfzero::compare
