// `perfzero history` flags.
#include "cli/cli_app.hpp"
#include "cli/history_options.hpp"

namespace perfzero::cli {

std::optional<std::string> parse_history_flags(int argc, const char* const* argv, HistoryOptions& out) {
  CLI::App app{"Not built yet.", "perfzero history"};
  app.allow_extras();
  if (auto help = parse_or_help(app, argc, argv)) return help;
  out.args = app.remaining();
  return std::nullopt;
}

}  // namespace perfzero::cli
