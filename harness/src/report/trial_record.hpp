#pragma once
// Everything known about one finished (method, trial).
#include <filesystem>
#include <optional>
#include <string>
#include <variant>

#include "config/run_plan.hpp"
#include "runner/child_result.hpp"
#include "runner/outcome_classifier.hpp"
#include "runner/trial_execution.hpp"

namespace perfzero::report {

struct TrialRecord {
  const config::PlannedCase* planned = nullptr;
  int trial = 1;               // 1-based
  double started_offset = 0;   // seconds from the run's start to this trial's start
  double harness_seconds = 0;  // this trial's whole time in the harness, launch preparation to outcome
  std::filesystem::path dir;
  runner::TrialExecution execution;
  std::variant<runner::ChildResult, std::string> result;
  runner::Classification classification;
};

}  // namespace perfzero::report
