#pragma once
// Parsing JSON a child wrote, with a nesting limit. nlohmann's parser is iterative, but dumping and
// walking a document recurse: 100,000 levels of `extras` overflowed the harness's stack, and 50,000
// levels of a 100 KB result became a 5 GB indented report. Real results nest a few levels.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace perfzero::child_results {

inline constexpr int kMaxJsonDepth = 64;

// The document, or nullopt with `problem` saying what is wrong (not JSON with the byte offset, or
// nested deeper than `max_depth` objects and lists).
std::optional<nlohmann::json> parse_bounded_json(std::string_view text, std::string& problem,
                                                 int max_depth = kMaxJsonDepth);

}  // namespace perfzero::child_results
