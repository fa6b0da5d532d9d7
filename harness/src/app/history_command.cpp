// `perfzero history`.
#include "app/commands.hpp"

namespace perfzero::app {

int history_command(const cli::HistoryOptions& /*options*/) { return not_built(cli::Command::history); }

}  // namespace perfzero::app
