#pragma once
// Reads and checks the result file a child wrote (docs/protocol.md).
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "perfzero/metric.hpp"
#include "runner/repetitions.hpp"

namespace perfzero::runner {

struct ChildResult {
  std::vector<Metric> metrics;
  nlohmann::json extras = nlohmann::json::object();
  nlohmann::json ml_framework_info;  // null when the child gave none
  std::optional<std::string> skipped;
  std::optional<std::string> error;
  std::optional<double> self_wall_time;
  std::vector<RepetitionRecord> repetitions;  // empty when the child gave none
};

// The parsed result, or a message saying what is wrong with it (missing, not JSON, which field).
std::variant<ChildResult, std::string> read_child_result(const std::filesystem::path& path);
std::variant<ChildResult, std::string> parse_child_result(const std::string& text);

}  // namespace perfzero::runner
