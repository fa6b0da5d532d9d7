#pragma once
// Turns a Google Benchmark JSON report (--benchmark_out_format=json) into a child result: every
// benchmark entry's times, rates and counters become metrics named "<benchmark>.<field>".
#include <filesystem>
#include <string>
#include <variant>

#include "runner/child_result.hpp"

namespace perfzero::runner {

inline constexpr const char* kGoogleBenchmarkFile = "google_benchmark.json";

std::variant<ChildResult, std::string> parse_google_benchmark(const std::string& text);
std::variant<ChildResult, std::string> read_google_benchmark(const std::filesystem::path& path);

}  // namespace perfzero::runner
