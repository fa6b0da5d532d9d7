#pragma once
// Turns the JSON report of a tool perfzero runs as a method (docs/suites.md, `output:`) into a child
// result: fio's (--output-format=json) and iperf3's (--json). Read as untrusted, bounded, like any
// file a child wrote: a tool's own error becomes the trial's error, with the tool's words.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>

#include "child_results/child_result.hpp"

namespace perfzero::child_results {

inline constexpr const char* kFioFile = "fio.json";
inline constexpr const char* kIperf3File = "iperf3.json";

// Every job's read and write (and trim) that moved data: "<job>.<dir>_iops" (IO/s),
// "<job>.<dir>_bandwidth" (MB/s), "<job>.<dir>_clat_mean_us", "_clat_p50_us", "_clat_p99_us",
// "_clat_p99_9_us" (completion latency, us). A job's non-zero `error` fails the trial naming it.
std::variant<ChildResult, std::string> parse_fio(std::string_view text);
std::variant<ChildResult, std::string> read_fio(const std::filesystem::path& path,
                                                std::uint64_t max_bytes = kDefaultMaxResultBytes);

// The end summary: "sent_throughput" and "received_throughput" (Gbit/s), "retransmits" (TCP),
// "jitter_ms" and "lost_percent" (UDP), "host_cpu_percent" and "remote_cpu_percent". iperf3's own
// `error` fails the trial with its words.
std::variant<ChildResult, std::string> parse_iperf3(std::string_view text);
std::variant<ChildResult, std::string> read_iperf3(const std::filesystem::path& path,
                                                   std::uint64_t max_bytes = kDefaultMaxResultBytes);

}  // namespace perfzero::child_results
