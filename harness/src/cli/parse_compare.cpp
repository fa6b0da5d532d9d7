// `perfzero compare` flags.
#include "cli/cli_app.hpp"
#include "cli/compare_options.hpp"

namespace perfzero::cli {

std::optional<std::string> parse_compare_flags(int argc, const char* const* argv, CompareOptions& out) {
  CLI::App app{"Not built yet.", "perfzero compare"};
  app.allow_extras();
  if (auto help = parse_or_help(app, argc, argv)) return help;
  out.args = app.remaining();
  return std::nullopt;
}

}  // namespace perfzero::cli
