#pragma once
// report RESULT_DIR... --history DB: the between-run noise floor read from the results history.
#include "cli/report_options.hpp"
#include "fleet_report/report_model.hpp"

namespace perfzero::commands {

// Per (method, metric): over each series' last 21 runs, how far a run's median lands from the one
// before (larger over smaller, less 1), at the 95th percentile of those steps; empty without
// --history. Throws UsageError for a database that does not exist, OutputError for one that fails.
fleet_report::HistoryNoiseTable history_noise_from(const cli::ReportOptions& options);

}  // namespace perfzero::commands
