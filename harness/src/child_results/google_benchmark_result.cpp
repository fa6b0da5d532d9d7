#include "child_results/google_benchmark_result.hpp"

#include <array>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "child_results/bounded_json.hpp"
#include "child_results/non_finite_json.hpp"
#include "common/text.hpp"

namespace perfzero::child_results {

namespace {

using nlohmann::json;

// Keys of a benchmark entry that are not measurements.
bool descriptive(const std::string& key) {
  static const std::array<const char*, 17> keys{"name",           "run_name",         "run_type",
                                                "repetitions",    "repetition_index", "threads",
                                                "iterations",     "time_unit",        "aggregate_name",
                                                "aggregate_unit", "family_index",     "per_family_instance_index",
                                                "error_occurred", "error_message",    "label",
                                                "big_o",          "skipped"};
  for (const char* k : keys) {
    if (key == k) return true;
  }
  return false;
}

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string string_field(const json& entry, const char* key, const std::string& fallback) {
  const auto it = entry.find(key);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : fallback;
}

std::string unit_of(const std::string& key, const json& entry) {
  // A _cv aggregate is the standard deviation over the mean for every field: a fraction.
  if (string_field(entry, "aggregate_unit", "") == "percentage") return "fraction";
  if (key == "real_time" || key == "cpu_time") return string_field(entry, "time_unit", "ns");
  if (key == "bytes_per_second") return "B/s";
  if (key == "items_per_second") return "items/s";
  // The JSON report drops a counter's flags, so a rate counter (kIsRate) is known only by its name.
  if (ends_with(key, "per_second") || ends_with(key, "PerSecond") || ends_with(key, "/s")) return "1/s";
  return "1";
}

// Times are better lower and the built-in rates higher. A spread (stddev or cv aggregate) or a user
// counter says nothing about which way is better (a counter's flags are not in the JSON), so it has none.
Direction direction_of(const std::string& key, const json& entry) {
  const std::string aggregate = string_field(entry, "aggregate_name", "");
  if (aggregate == "stddev" || aggregate == "cv" || string_field(entry, "aggregate_unit", "") == "percentage") {
    return Direction::unspecified;
  }
  if (key == "real_time" || key == "cpu_time") return Direction::lower_is_better;
  if (key == "bytes_per_second" || key == "items_per_second") return Direction::higher_is_better;
  return Direction::unspecified;
}

// The metric name prefix: with --benchmark_repetitions every repetition repeats the name.
std::string entry_name(const json& entry) {
  std::string name = entry["name"].get<std::string>();
  const auto repetitions = entry.find("repetitions");
  const auto index = entry.find("repetition_index");
  if (string_field(entry, "run_type", "") == "iteration" && repetitions != entry.end() &&
      repetitions->is_number_integer() && repetitions->get<long long>() > 1 && index != entry.end() &&
      index->is_number_integer()) {
    name += "/repetition_" + std::to_string(index->get<long long>());
  }
  return name;
}

bool entry_failed(const json& entry) {
  const auto it = entry.find("error_occurred");
  return it != entry.end() && it->is_boolean() && it->get<bool>();
}

struct Collected {
  ChildResult result;
  std::map<std::string, std::string> errors;      // entry name -> SkipWithError message
  std::map<std::string, std::string> non_finite;  // metric name -> NaN, Infinity, -Infinity
};

void collect_entry(const json& entry, Collected& out) {
  const std::string name = entry_name(entry);
  if (entry_failed(entry)) {
    out.errors[name] = string_field(entry, "error_message", "error");
    return;
  }
  for (const auto& [key, value] : entry.items()) {
    if (descriptive(key)) continue;
    const std::string metric = name + "." + key;
    if (const auto token = non_finite_token(value)) {
      out.non_finite[metric] = *token;
    } else if (value.is_number() && std::isfinite(value.get<double>())) {
      out.result.metrics.push_back(Metric{metric, value.get<double>(), unit_of(key, entry), std::nullopt, std::nullopt,
                                          direction_of(key, entry)});
    }
  }
}

void add_context(const json& doc, ChildResult& result) {
  const auto context = doc.find("context");
  if (context == doc.end() || !context->is_object()) return;
  result.extras["google_benchmark_context"] = *context;
  // Google Benchmark's own warning: numbers from a debug build of the library mean little.
  if (string_field(*context, "library_build_type", "") == "debug") {
    result.extras["warning"] = "the Google Benchmark library was built in debug mode";
  }
}

}  // namespace

std::variant<ChildResult, std::string> parse_google_benchmark(std::string_view text) {
  std::string problem;
  // libbenchmark writes a NaN or infinite counter as a bare NaN / Infinity, which JSON does not have.
  const auto doc = parse_bounded_json(quote_non_finite(text), problem);
  if (!doc) return "the Google Benchmark output is " + problem;
  if (!doc->is_object()) return std::string("the Google Benchmark output is not a JSON object");
  const auto benchmarks = doc->find("benchmarks");
  if (benchmarks == doc->end() || !benchmarks->is_array()) {
    return std::string("the Google Benchmark output has no 'benchmarks' list");
  }
  Collected c;
  std::size_t index = 0;
  for (const auto& entry : *benchmarks) {
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()) {
      return fmt::format("the Google Benchmark output's benchmarks[{}] has no string 'name'", index);
    }
    collect_entry(entry, c);
    ++index;
  }
  ChildResult& result = c.result;
  if (result.metrics.empty() && c.errors.empty() && c.non_finite.empty()) {
    return std::string("the Google Benchmark output has no measurement");
  }
  // A failed entry (SkipWithError) is reported by name; the others' metrics still count. Only
  // when nothing was measured at all did the trial fail.
  if (!c.errors.empty()) {
    result.extras["google_benchmark_errors"] = c.errors;
    result.flags.emplace_back("benchmark_entry_error");
    if (result.metrics.empty() && c.non_finite.empty()) {
      std::vector<std::string> all;
      for (const auto& [name, message] : c.errors) all.push_back(name + ": " + message);
      result.error = "Google Benchmark reported errors: " + text::join(all, "; ");
    }
  }
  // JSON has no NaN: a non-finite value is not a metric (statistics over it mean nothing) but is
  // named, with its value, under extras.non_finite_metrics.
  if (!c.non_finite.empty()) {
    result.extras["non_finite_metrics"] = c.non_finite;
    result.flags.emplace_back("non_finite_metric");
  }
  add_context(*doc, result);
  result.ml_framework_info = {{"name", "google-benchmark"}, {"version", ""}, {"build_version", ""}};
  return result;
}

std::variant<ChildResult, std::string> read_google_benchmark(const std::filesystem::path& path,
                                                             std::uint64_t max_bytes) {
  const UntrustedFile file = read_untrusted_file(path, max_bytes, "--max_result_bytes");
  if (file.missing) return std::string("the Google Benchmark binary wrote no JSON output");
  if (!file.text) return "the Google Benchmark output is unusable: " + file.problem;
  return parse_google_benchmark(*file.text);
}

}  // namespace perfzero::child_results
