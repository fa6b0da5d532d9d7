#pragma once
// Everything the runner knows about one finished (method, trial), before it becomes a trial of the
// results model (runner/trial_result.hpp).
#include <filesystem>
#include <string>
#include <variant>

#include "child_results/child_result.hpp"
#include "config/run_plan.hpp"
#include "runner/outcome_classifier.hpp"
#include "runner/trial_execution.hpp"

namespace perfzero::runner {

struct TrialRecord {
  const config::PlannedCase* planned = nullptr;
  int trial = 1;  // 1-based
  bool warmup = false;
  double started_offset = 0;   // seconds from the run's start to this trial's start
  double harness_seconds = 0;  // this trial's whole time in the harness, launch preparation to outcome
  std::filesystem::path dir;
  std::filesystem::path run_dir;
  TrialExecution execution;
  std::variant<child_results::ChildResult, std::string> result;
  Classification classification;
};

}  // namespace perfzero::runner
