#include "results/run_status.hpp"

namespace perfzero::results {

namespace {

constexpr std::string_view kAbortedPrefix = "aborted: ";

}  // namespace

std::string RunStatus::text() const {
  switch (kind) {
    case RunStatusKind::running:
      return "running";
    case RunStatusKind::completed:
      return "completed";
    case RunStatusKind::interrupted:
      return "interrupted";
    case RunStatusKind::interrupted_after_completion:
      return "interrupted_after_completion";
    case RunStatusKind::aborted:
      return std::string(kAbortedPrefix) + why;
  }
  return "running";
}

RunStatus RunStatus::parse(std::string_view text) {
  if (text == "completed") return {RunStatusKind::completed, {}};
  if (text == "interrupted") return {RunStatusKind::interrupted, {}};
  if (text == "interrupted_after_completion") return {RunStatusKind::interrupted_after_completion, {}};
  if (text.starts_with(kAbortedPrefix)) return aborted(std::string(text.substr(kAbortedPrefix.size())));
  return {};
}

}  // namespace perfzero::results
