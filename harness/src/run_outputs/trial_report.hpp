#pragma once
// The per-(method, trial) report: PerfZero's perfzero_summary.json, key for key, plus
// schema_version and our additions under perfzero_cpp (docs/reports.md).
#include <memory>

#include <nlohmann/json.hpp>

#include "common/trial_files.hpp"
#include "results/model.hpp"
#include "run_outputs/reporter.hpp"

namespace perfzero::run_outputs {

nlohmann::json build_trial_report(const results::RunInfo& run, const results::Case& c, const results::Trial& trial,
                                  const std::filesystem::path& trial_dir);

// Where the trial's report is, relative to the run's directory (the model's Trial::report), or ""
// when it gets none (results::gets_trial_report).
std::string trial_report_path(const results::Trial& trial);

std::unique_ptr<Reporter> make_trial_report_reporter();
std::unique_ptr<Reporter> make_process_log_reporter();

}  // namespace perfzero::run_outputs
