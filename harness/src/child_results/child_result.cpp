#include "child_results/child_result.hpp"

#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

#include "child_results/bounded_json.hpp"
#include "child_results/untrusted_file.hpp"

namespace perfzero::child_results {

std::variant<ChildResult, std::string> read_child_result(const std::filesystem::path& path, std::uint64_t max_bytes) {
  const UntrustedFile file = read_untrusted_file(path, max_bytes, "--max_result_bytes");
  if (file.missing) return std::string("no result file was written");
  if (!file.text) return "the result file is unusable: " + file.problem;
  return parse_child_result(*file.text);
}

namespace {

// One entry of the 'metrics' list; `earlier` maps the names before it to their index: a name must
// not come twice. (A hash lookup: checking each name against every earlier one made a result of
// 100,000 metrics take half a minute.)
std::variant<Metric, std::string> parse_metric(const nlohmann::json& m, const std::string& where,
                                               std::unordered_map<std::string, std::size_t>& earlier) {
  if (!m.is_object()) return where + " must be an object";
  if (!m.contains("name") || !m["name"].is_string() || m["name"].get<std::string>().empty()) {
    return where + " needs a non-empty string 'name'";
  }
  Metric metric;
  metric.name = m["name"].get<std::string>();
  // Two values under one name would be merged into one series and read as repetitions.
  const auto [at, added] = earlier.try_emplace(metric.name, earlier.size());
  if (!added) {
    return fmt::format("{} ('{}'): the name is already used by metrics[{}]; each metric once", where, metric.name,
                       at->second);
  }
  if (!m.contains("value") || !m["value"].is_number() || !std::isfinite(m["value"].get<double>())) {
    return fmt::format("{} ('{}') needs a finite number 'value'", where, metric.name);
  }
  metric.value = m["value"].get<double>();
  if (m.contains("unit")) {
    if (!m["unit"].is_string()) return fmt::format("{} ('{}'): 'unit' must be a string", where, metric.name);
    metric.unit = m["unit"].get<std::string>();
  }
  for (const char* bound : {"min_value", "max_value"}) {
    if (!m.contains(bound)) continue;
    if (!m[bound].is_number()) return fmt::format("{} ('{}'): '{}' must be a number", where, metric.name, bound);
    (std::string_view(bound) == "min_value" ? metric.min_value : metric.max_value) = m[bound].get<double>();
  }
  if (m.contains("direction")) {
    const auto& d = m["direction"];
    const auto direction = d.is_string() ? direction_from_string(d.get<std::string>()) : std::nullopt;
    if (!direction) {
      // A string is quoted (cut short: it came from an untrusted child); anything else is named by its type.
      const std::string got = d.is_string()
                                  ? d.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace).substr(0, 40)
                                  : std::string("a ") + d.type_name();
      return fmt::format("{} ('{}'): 'direction' must be \"higher\" or \"lower\", got {}", where, metric.name, got);
    }
    metric.direction = *direction;
  }
  return metric;
}

// Fills result.metrics from the 'metrics' list; returns the problem, or an empty string.
std::string parse_metrics(const nlohmann::json& metrics, ChildResult& result) {
  if (!metrics.is_array()) return "'metrics' must be a list";
  std::size_t index = 0;
  std::unordered_map<std::string, std::size_t> names;
  names.reserve(metrics.size());
  result.metrics.reserve(metrics.size());
  for (const auto& m : metrics) {
    auto metric = parse_metric(m, fmt::format("metrics[{}]", index++), names);
    if (auto* error = std::get_if<std::string>(&metric)) return std::move(*error);
    result.metrics.push_back(std::move(std::get<Metric>(metric)));
  }
  return {};
}

}  // namespace

std::variant<ChildResult, std::string> parse_child_result(std::string_view text) {
  std::string problem;
  const auto parsed = parse_bounded_json(text, problem);
  if (!parsed) return "the result file is " + problem;
  const nlohmann::json& doc = *parsed;
  if (!doc.is_object()) return std::string("the result file must hold a JSON object");
  ChildResult result;
  if (doc.contains("skipped")) {
    if (!doc["skipped"].is_string()) return std::string("'skipped' must be a string (the reason)");
    result.skipped = doc["skipped"].get<std::string>();
  }
  if (doc.contains("error")) {
    if (!doc["error"].is_string()) return std::string("'error' must be a string");
    result.error = doc["error"].get<std::string>();
  }
  const auto metrics = doc.find("metrics");
  if (metrics == doc.end()) {
    if (!result.skipped && !result.error) return std::string("the result has no 'metrics' list");
  } else if (std::string error = parse_metrics(*metrics, result); !error.empty()) {
    return error;
  }
  if (doc.contains("extras")) {
    if (!doc["extras"].is_object()) return std::string("'extras' must be an object");
    result.extras = doc["extras"];
  }
  if (doc.contains("ml_framework_info")) {
    if (!doc["ml_framework_info"].is_object()) return std::string("'ml_framework_info' must be an object");
    result.ml_framework_info = doc["ml_framework_info"];
  }
  if (doc.contains("repetitions")) {
    auto repetitions = parse_repetitions(doc["repetitions"]);
    if (auto* error = std::get_if<std::string>(&repetitions)) return std::move(*error);
    result.repetitions = std::move(std::get<std::vector<RepetitionRecord>>(repetitions));
  }
  if (doc.contains("self_wall_time") && doc["self_wall_time"].is_number()) {
    result.self_wall_time = doc["self_wall_time"].get<double>();
  }
  return result;
}

}  // namespace perfzero::child_results
