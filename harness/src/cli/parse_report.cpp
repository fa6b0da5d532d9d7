// `perfzero report` flags.
#include "cli/cli_app.hpp"
#include "cli/report_options.hpp"

namespace perfzero::cli {

std::optional<std::string> parse_report_flags(int argc, const char* const* argv, ReportOptions& out) {
  CLI::App app{"Not built yet.", "perfzero report"};
  app.allow_extras();
  if (auto help = parse_or_help(app, argc, argv)) return help;
  out.args = app.remaining();
  return std::nullopt;
}

}  // namespace perfzero::cli
