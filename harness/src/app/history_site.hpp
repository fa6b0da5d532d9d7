#pragma once
// `perfzero history site` (docs/history.md, "The history site").
#include "cli/history_options.hpp"
#include "history/store.hpp"

namespace perfzero::app {

int history_site(const cli::HistoryOptions& o, history::Store& store);

}  // namespace perfzero::app
