#pragma once
// One trial, from its command to the results model: the method run by an executor, its result read
// and classified, then the trial of the model and the artifacts its reporters write. The run loop
// (session/run_loop.cpp) prepares the trial's directory and records what comes back; everything between
// is here, behind one call, whatever executor runs the method.
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

#include "config/run_plan.hpp"
#include "results/model.hpp"
#include "runner/executor.hpp"
#include "runner/trial_record.hpp"
#include "runner/trial_runner.hpp"  // TrialRequest

namespace perfzero::runner {

struct TrialJob {
  const config::PlannedCase* planned = nullptr;
  int trial = 1;  // 1-based
  bool warmup = false;
  std::filesystem::path run_dir;
  std::filesystem::path dir;  // the trial's directory: made, with its TMPDIR, no earlier attempt's files
  std::chrono::steady_clock::time_point started;  // when the harness began on it (its directory included)
  double started_offset = 0;                      // seconds from the run's start to `started`
  TrialRequest request;  // its check_trial_dir, when set, is asked once (by the executor or here)
};

struct ExecutedTrial {
  // What was observed: the outcome, the stop signal, the times for progress lines. The samplers'
  // series have moved to `artifacts`.
  TrialRecord record;
  results::Trial trial;
  results::TrialArtifacts artifacts;
};

ExecutedTrial execute_trial(const TrialJob& job, Executor& executor);

}  // namespace perfzero::runner
