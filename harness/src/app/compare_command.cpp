// `perfzero compare`.
#include "app/commands.hpp"

namespace perfzero::app {

int compare_command(const cli::CompareOptions& /*options*/) { return not_built(cli::Command::compare); }

}  // namespace perfzero::app
