// `perfzero report`.
#include "app/commands.hpp"

namespace perfzero::app {

int report_command(const cli::ReportOptions& /*options*/) { return not_built(cli::Command::report); }

}  // namespace perfzero::app
