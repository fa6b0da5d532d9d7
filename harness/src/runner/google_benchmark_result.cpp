#include "runner/google_benchmark_result.hpp"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "common/files.hpp"

namespace perfzero::runner {

namespace {

// Keys of a benchmark entry that are not measurements.
bool descriptive(const std::string& key) {
  static const std::array<const char*, 16> keys{"name",           "run_name",         "run_type",
                                                "repetitions",    "repetition_index", "threads",
                                                "iterations",     "time_unit",        "aggregate_name",
                                                "aggregate_unit", "family_index",     "per_family_instance_index",
                                                "error_occurred", "error_message",    "label",
                                                "big_o"};
  for (const char* k : keys) {
    if (key == k) return true;
  }
  return false;
}

std::string unit_of(const std::string& key, const std::string& time_unit) {
  if (key == "real_time" || key == "cpu_time") return time_unit;
  if (key == "bytes_per_second") return "B/s";
  if (key == "items_per_second") return "items/s";
  return "1";
}

}  // namespace

std::variant<ChildResult, std::string> parse_google_benchmark(const std::string& text) {
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::string("the Google Benchmark output is not a JSON object");
  if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array()) {
    return std::string("the Google Benchmark output has no 'benchmarks' list");
  }
  ChildResult result;
  std::vector<std::string> errors;
  for (const auto& entry : doc["benchmarks"]) {
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()) {
      return std::string("a Google Benchmark entry has no name");
    }
    std::string name = entry["name"].get<std::string>();
    // With --benchmark_repetitions every repetition repeats the name; keep them apart.
    if (entry.value("run_type", std::string()) == "iteration" && entry.value("repetitions", 1) > 1 &&
        entry.contains("repetition_index")) {
      name += "/repetition_" + std::to_string(entry["repetition_index"].get<int>());
    }
    if (entry.value("error_occurred", false)) {
      errors.push_back(name + ": " + entry.value("error_message", std::string("error")));
      continue;
    }
    const std::string time_unit = entry.value("time_unit", std::string("ns"));
    for (const auto& [key, value] : entry.items()) {
      if (descriptive(key) || !value.is_number()) continue;
      const double v = value.get<double>();
      if (!std::isfinite(v)) continue;
      result.metrics.push_back(Metric{name + "." + key, v, unit_of(key, time_unit), std::nullopt, std::nullopt});
    }
  }
  if (result.metrics.empty() && errors.empty()) return std::string("the Google Benchmark output has no measurement");
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors) all += (all.empty() ? "" : "; ") + e;
    result.error = "Google Benchmark reported errors: " + all;
  }
  if (doc.contains("context") && doc["context"].is_object()) {
    const auto& context = doc["context"];
    result.extras["google_benchmark_context"] = context;
    // Google Benchmark's own warning: numbers from a debug build of the library mean little.
    if (context.value("library_build_type", std::string()) == "debug") {
      result.extras["warning"] = "the Google Benchmark library was built in debug mode";
    }
  }
  result.ml_framework_info = {{"name", "google-benchmark"}, {"version", ""}, {"build_version", ""}};
  return result;
}

std::variant<ChildResult, std::string> read_google_benchmark(const std::filesystem::path& path) {
  const auto text = files::read_text(path);
  if (!text) return std::string("the Google Benchmark binary wrote no JSON output");
  return parse_google_benchmark(*text);
}

}  // namespace perfzero::runner
