#pragma once
// Which of a trial's flags say that its measurement was disturbed (docs/monitoring.md, "Flags").
// A disturbed trial is not a measurement for `compare`, `ab`, `report` and the history unless the user
// asks for it (--use_flagged): the harness saw that something else shaped its figures.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "results/model.hpp"

namespace perfzero::results {

// host_busy (another process used the CPUs), gpu_throttled (the GPU slowed its clocks),
// cpu_throttled (the CPU ran below its clock), harness_stalled (the harness itself was stopped while
// the method ran). Other flags (log_truncated, left_files, ...) describe the trial, not its timing.
bool is_disturbance(std::string_view flag);

// The disturbance flags a trial carries, in its order.
std::vector<std::string> disturbances(const Trial& trial);
bool disturbed(const Trial& trial);

// How many of `trials` carry each disturbance flag, in first-seen order.
using FlagCounts = std::vector<std::pair<std::string, int>>;
void count_disturbances(const Trial& trial, FlagCounts& counts);

// "host busy" for host_busy: the words people read in verdicts and advice.
std::string flag_words(std::string_view flag);

}  // namespace perfzero::results
