#pragma once
// The names of the files in a trial's directory (docs/reports.md). PerfZero's own scripts find runs
// by perfzero_summary.json, process_info.log and perfzero.log, so those names are part of the contract.
#include <string>
#include <string_view>

namespace perfzero::files {

inline constexpr const char* kReportFile = "perfzero_summary.json";  // the trial report
inline constexpr const char* kProcessLogFile = "process_info.log";   // process-tree samples
inline constexpr const char* kChildLogFile = "perfzero.log";         // the child's stdout and stderr
inline constexpr const char* kResultFile = "result.json";            // what the child wrote

// A sampler's time series (the process tree's is kProcessLogFile, PerfZero's name).
inline std::string sampler_log_file(std::string_view sampler) {
  return sampler == "process_tree" ? kProcessLogFile : "sampler_" + std::string(sampler) + ".log";
}
inline bool is_sampler_log_file(std::string_view name) {
  return name.starts_with("sampler_") && name.ends_with(".log");
}

}  // namespace perfzero::files
