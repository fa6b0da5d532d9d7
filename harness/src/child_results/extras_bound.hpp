#pragma once
// How much of a result's `extras` goes into the reports. A method may put anything there; an 8 MB
// result whose extras held a list of 4,000,000 numbers nested deep became a 516 MB indented
// perfzero_summary.json and a 1.21 GB harness. Reports keep at most kMaxReportedExtrasBytes of extras
// (as compact JSON), each kept entry at most kMaxReportedExtrasDepth levels deep; what is cut is
// replaced by a line saying what it was, and the trial is flagged extras_cut. The result file, with
// every byte the method wrote, stays in the trial's directory.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::child_results {

inline constexpr std::size_t kMaxReportedExtrasBytes = 1U << 20;  // 1 MiB
inline constexpr int kMaxReportedExtrasDepth = 8;

// Cuts `extras` (an object) down to what reports keep. Returns the keys whose values were cut, in
// their order; empty when everything was kept.
std::vector<std::string> bound_extras(nlohmann::json& extras, std::size_t max_bytes = kMaxReportedExtrasBytes,
                                      int max_depth = kMaxReportedExtrasDepth);

}  // namespace perfzero::child_results
