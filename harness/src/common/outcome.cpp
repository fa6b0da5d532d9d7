#include "common/outcome.hpp"

#include <array>
#include <utility>

namespace perfzero {

namespace {
constexpr std::array<std::pair<Outcome, std::string_view>, 7> kNames{{
    {Outcome::succeeded, "succeeded"},
    {Outcome::failed, "failed"},
    {Outcome::crashed, "crashed"},
    {Outcome::timed_out, "timed_out"},
    {Outcome::skipped, "skipped"},
    {Outcome::invalid, "invalid"},
    {Outcome::interrupted, "interrupted"},
}};
}  // namespace

std::string_view to_string(Outcome outcome) {
  for (const auto& [value, name] : kNames) {
    if (value == outcome) return name;
  }
  return "unknown";
}

std::optional<Outcome> outcome_from_string(std::string_view name) {
  for (const auto& [value, text] : kNames) {
    if (text == name) return value;
  }
  return std::nullopt;
}

bool counts_as_success(Outcome outcome) { return outcome == Outcome::succeeded || outcome == Outcome::skipped; }

}  // namespace perfzero
