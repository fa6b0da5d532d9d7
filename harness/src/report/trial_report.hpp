#pragma once
// The per-(method, trial) report: PerfZero's perfzero_summary.json and process_info.log.
#include <nlohmann/json.hpp>

#include "report/run_context.hpp"
#include "report/trial_record.hpp"

namespace perfzero::report {

inline constexpr const char* kSchemaVersion = "1.0.0";
inline constexpr const char* kReportFile = "perfzero_summary.json";
inline constexpr const char* kProcessLogFile = "process_info.log";
inline constexpr const char* kChildLogFile = "perfzero.log";
inline constexpr const char* kResultFile = "result.json";

nlohmann::json build_trial_report(const RunContext& run, const TrialRecord& record);
// Writes process_info.log then perfzero_summary.json, each atomically.
void write_trial_files(const RunContext& run, const TrialRecord& record);
// max_rss as reported: the largest of what the kernel and the samples saw (docs/monitoring.md).
std::uint64_t reported_max_rss(const runner::TrialExecution& execution);

}  // namespace perfzero::report
