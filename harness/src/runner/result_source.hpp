#pragma once
// Which result a trial of a case has: the file its command wrote (the perfzero protocol or a Google
// Benchmark report), or, for a command with `output: none`, metrics made from the harness's own
// measurements of its process tree, as hyperfine times any command.
#include <filesystem>
#include <string>
#include <variant>

#include "child_results/child_result.hpp"
#include "config/run_plan.hpp"
#include "results/command_metrics.hpp"
#include "runner/trial_execution.hpp"

namespace perfzero::runner {

// The metric names a command with `output: none` gets (results/command_metrics.hpp). Its wall time
// (launch to the end of its tree) is the trial's own wall time, which every output shows once as
// `wall_time`.
using results::kMaxRssMetric;
using results::kSystemCpuMetric;
using results::kUserCpuMetric;

// The trial's result, or a message saying why there is none (for the classifier to call invalid).
std::variant<child_results::ChildResult, std::string> read_trial_result(const config::PlannedCase& planned,
                                                                        const std::filesystem::path& trial_dir,
                                                                        const TrialExecution& execution);

// The metrics of a command that reports nothing itself.
child_results::ChildResult measured_result(const TrialExecution& execution);

}  // namespace perfzero::runner
