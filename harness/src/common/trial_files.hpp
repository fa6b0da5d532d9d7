#pragma once
// The names of the files in a trial's directory (docs/reports.md). PerfZero's own scripts find runs
// by perfzero_summary.json, process_info.log and perfzero.log, so those names are part of the contract.
namespace perfzero::files {

inline constexpr const char* kReportFile = "perfzero_summary.json";  // the trial report
inline constexpr const char* kProcessLogFile = "process_info.log";   // process-tree samples
inline constexpr const char* kChildLogFile = "perfzero.log";         // the child's stdout and stderr
inline constexpr const char* kResultFile = "result.json";            // what the child wrote

}  // namespace perfzero::files
