#pragma once
// The names of the files in a trial's directory (docs/reports.md). PerfZero's own scripts find runs
// by perfzero_summary.json, process_info.log and perfzero.log, so those names are part of the contract.
namespace perfzero::files {

inline constexpr const char* kReportFile = "perfzero_summary.json";  // the trial report
inline constexpr const char* kProcessLogFile = "process_info.log";   // process-tree samples
inline constexpr const char* kChildLogFile = "perfzero.log";         // the child's stdout and stderr
inline constexpr const char* kResultFile = "result.json";            // what the child wrote
// In the run's directory: the TMPDIR every trial is given, reused while trials leave it empty; what
// a trial leaves there is moved to its own directory as `tmp` (samplers/leftover_files_sampler.cpp).
inline constexpr const char* kTrialTmpDir = ".trial-tmp";
inline constexpr const char* kLeftTmpDir = "tmp";

}  // namespace perfzero::files
