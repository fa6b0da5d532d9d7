#pragma once
// Google Benchmark writes a NaN or infinite value as a bare NaN, -NaN, Infinity or -Infinity,
// which is not JSON. These turn such tokens into marked strings before parsing, and back.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace perfzero::child_results {

// `text` with every bare non-finite token outside a string replaced by a marked JSON string.
std::string quote_non_finite(std::string_view text);

// The token ("NaN", "Infinity", "-Infinity", "-NaN") when `value` is such a marked string.
std::optional<std::string> non_finite_token(const nlohmann::json& value);

}  // namespace perfzero::child_results
