#pragma once
// `trials: auto` (docs/suites.md): how many trials a case gets when the noise decides: at least
// min_trials and min_time, then until the 95 % interval of the median is within max_noise of it,
// at most max_trials or max_time. Shared by the plan (config/), the run loop and the summaries.
namespace perfzero {

struct AutoTrials {
  int min_trials = 5;
  int max_trials = 50;
  double min_seconds = 0.5;  // the case's trials together, in the harness
  double max_seconds = 300;
  double max_noise = 0.02;  // half the interval's width over the median
};

}  // namespace perfzero
