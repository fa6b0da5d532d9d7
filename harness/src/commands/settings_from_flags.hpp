#pragma once
// `perfzero run`'s flags, as the run engine takes them.
#include "cli/options.hpp"
#include "session/session_settings.hpp"

namespace perfzero::commands {

session::SessionSettings session_settings(const cli::Options& options);

}  // namespace perfzero::commands
