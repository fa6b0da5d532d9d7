#pragma once
// A stored run named by its execution id or a unique prefix of one, as git takes a commit's:
// `history show 20261122T19`, `compare --history=DB --label=main 20261122T19`.
#include <string>

#include "history/store.hpp"

namespace perfzero::history {

// The full execution id; a UsageError naming up to 10 of the runs when the prefix is ambiguous, or
// saying that none matches.
std::string resolve_run_id(history::Store& store, const std::string& id_or_prefix);

}  // namespace perfzero::history
