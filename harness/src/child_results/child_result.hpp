#pragma once
// Reads and checks the result file a child wrote (docs/protocol.md).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "child_results/repetitions.hpp"
#include "child_results/untrusted_file.hpp"
#include "perfzero/metric.hpp"

namespace perfzero::child_results {

struct ChildResult {
  std::vector<Metric> metrics;
  nlohmann::json extras = nlohmann::json::object();
  nlohmann::json ml_framework_info;  // null when the child gave none
  std::optional<std::string> skipped;
  std::optional<std::string> error;
  std::optional<double> self_wall_time;
  std::vector<RepetitionRecord> repetitions;  // empty when the child gave none
  std::vector<std::string> flags;             // conditions worth a look, added to the trial's flags
};

// The parsed result, or a message saying what is wrong with it (missing, not a regular file, over
// `max_bytes`, not JSON, nested too deep, which field).
std::variant<ChildResult, std::string> read_child_result(const std::filesystem::path& path,
                                                         std::uint64_t max_bytes = kDefaultMaxResultBytes);
std::variant<ChildResult, std::string> parse_child_result(std::string_view text);

}  // namespace perfzero::child_results
