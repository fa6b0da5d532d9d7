#pragma once
// The list protocol: `perfzero-worker-NAME --list-json` describes the worker's methods as one JSON
// document, which the harness reads at start-up (src/method_catalog/, docs/cli.md).
#include <string_view>

#include <nlohmann/json.hpp>

#include "perfzero/registry.hpp"

namespace perfzero::detail {

inline constexpr int kListProtocolVersion = 1;

// {"worker": NAME, "list_protocol_version": 1, "methods": [{"name", "family", "class", "method",
//  "description", "params": [{"name", "type", "default", "description"}]}]}
nlohmann::json method_list_json(const Registry& registry, std::string_view worker);

}  // namespace perfzero::detail
