#pragma once
// `perfzero history site` (docs/history.md, "The history site").
#include "cli/history_options.hpp"
#include "history/store.hpp"

namespace perfzero::commands {

int history_site(const cli::HistoryOptions& o, history::Store& store);

}  // namespace perfzero::commands
