#pragma once
// Turns a Google Benchmark JSON report (--benchmark_out_format=json) into a child result: every
// benchmark entry's times, rates and counters become metrics named "<benchmark>.<field>".
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>

#include "child_results/child_result.hpp"

namespace perfzero::child_results {

inline constexpr const char* kGoogleBenchmarkFile = "google_benchmark.json";

// An entry that failed (SkipWithError) is named in extras.google_benchmark_errors and flagged
// benchmark_entry_error; the trial fails only when no entry measured anything. A NaN or infinite
// value is named in extras.non_finite_metrics and flagged non_finite_metric. Units: the time unit
// for times, B/s and items/s for the built-in rates, 1/s for a counter named ...per_second,
// "fraction" for every field of a _cv aggregate, else "1".
std::variant<ChildResult, std::string> parse_google_benchmark(std::string_view text);
std::variant<ChildResult, std::string> read_google_benchmark(const std::filesystem::path& path,
                                                             std::uint64_t max_bytes = kDefaultMaxResultBytes);

}  // namespace perfzero::child_results
