#include "history/run_id_prefix.hpp"

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/escape.hpp"

namespace perfzero::history {

std::string resolve_run_id(history::Store& store, const std::string& id_or_prefix) {
  const auto found = store.resolve_id(id_or_prefix);
  if (found.matches.empty()) {
    throw UsageError(fmt::format("history: no run {} in {}", text::printable(id_or_prefix), store.describe()));
  }
  if (found.matches.size() > 1) {
    std::string some;
    for (const auto& m : found.matches) some += (some.empty() ? "" : ", ") + text::printable(m);
    throw UsageError(fmt::format("history: '{}' is the start of more than one run id ({}{}): give more of it",
                                 text::printable(id_or_prefix), some, found.matches.size() >= 10 ? ", ..." : ""));
  }
  return found.matches.front();
}

}  // namespace perfzero::history
