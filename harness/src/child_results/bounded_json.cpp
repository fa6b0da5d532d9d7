#include "child_results/bounded_json.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace perfzero::child_results {

namespace {

// The deepest nesting of objects and lists in `text`, strings skipped; stops counting past `limit`.
// A scan of the bytes: nlohmann's callback parser, which could stop at the limit itself, rescans a
// list at the end of each object in it, and took seconds for a result of 40,000 metrics.
int nesting_depth(std::string_view text, int limit) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

std::optional<nlohmann::json> parse_bounded_json(std::string_view text, std::string& problem, int max_depth) {
  using nlohmann::json;
  // Checked before parsing: a document nested deeper is refused whole, whatever else is wrong with it.
  if (nesting_depth(text, max_depth) > max_depth) {
    problem = fmt::format("nested deeper than {} levels of objects and lists", max_depth);
    return std::nullopt;
  }
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    problem = fmt::format("not valid JSON (at byte {})", e.byte);
  } catch (const json::exception&) {
    // With exceptions on, a number too large for a double (1e999) throws out_of_range, not
    // parse_error (found by tests/fuzz/fuzz_child_result).
    problem = "not valid JSON (a number out of range)";
  }
  return std::nullopt;
}

}  // namespace perfzero::child_results
