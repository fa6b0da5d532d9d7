#include "runner/bounded_json.hpp"

#include <fmt/format.h>

namespace perfzero::runner {

namespace {

// Thrown from the parser callback to stop parsing at once: returning false would only drop the
// value and let the parser go on building the rest.
struct TooDeep {};

}  // namespace

std::optional<nlohmann::json> parse_bounded_json(std::string_view text, std::string& problem, int max_depth) {
  using nlohmann::json;
  // `depth` is the number of objects and lists around the one that starts.
  const json::parser_callback_t limit = [max_depth](int depth, json::parse_event_t event, json& /*parsed*/) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= max_depth) {
      throw TooDeep{};
    }
    return true;
  };
  try {
    json doc = json::parse(text, limit, /*allow_exceptions=*/true);
    return doc;
  } catch (const TooDeep&) {
    problem = fmt::format("nested deeper than {} levels of objects and lists", max_depth);
  } catch (const json::parse_error& e) {
    problem = fmt::format("not valid JSON (at byte {})", e.byte);
  } catch (const json::exception&) {
    // With exceptions on, a number too large for a double (1e999) throws out_of_range, not
    // parse_error (found by tests/fuzz/fuzz_child_result).
    problem = "not valid JSON (a number out of range)";
  }
  return std::nullopt;
}

}  // namespace perfzero::runner
