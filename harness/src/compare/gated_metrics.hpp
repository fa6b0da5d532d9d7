#pragma once
// Which metrics gate: the one answer `compare`, `compare --history`, `ab` and `history changes
// --fail_on_change` use (docs/compare.md, "The gate"). By default, for every method, commands
// included: its wall time, its process tree's CPU time, and each metric the method declared with a
// direction (lower or higher is better). Shown but not gated: the counters (how the CPU ran it, not
// how fast), the halves of a command's CPU time and its peak memory (the tree's CPU time already
// gates the sum), and metrics without a direction, which no change can make slower. `--metrics=RE`
// replaces the default: the metrics whose name the regular expression finds gate, whatever they are.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfzero/metric.hpp"
#include "results/model.hpp"

namespace perfzero::compare {

// The row of a trial's wall time (or the wall_time metric a method reported itself) and the row of its
// process tree's CPU time, user plus system, as the kernel accounted it when the tree was reaped.
inline constexpr const char* kWallTimeRow = "wall_time";
inline constexpr const char* kTreeCpuRow = "tree_cpu_seconds";

// The trial's tree CPU time: a tree_cpu_seconds metric it holds (a run read back from the history),
// else the kernel's figures in its process detail; none when the launcher was lost before it could
// account for the tree.
std::optional<double> tree_cpu_seconds(const results::Trial& trial);

bool gated_by_default(std::string_view metric, Direction direction);

// The tree's CPU time of a method that mostly waits (a sleep, a round trip over the network) is a few
// milliseconds of start-up whose noise no number of trials narrows to within --min_change: gating it
// would leave every comparison of such a method undecided. So by default it gates only when a side
// kept the CPU busy for at least this share of its wall time (medians over its trials).
inline constexpr double kBusyTreeShare = 0.1;
bool tree_was_busy(const std::vector<double>& cpu_seconds, const std::vector<double>& wall_seconds);

// `pattern` empty: gated_by_default. Otherwise an ECMAScript regular expression searched in the
// metric's name. Throws std::regex_error for a bad pattern (the CLI checks it first).
bool is_gated(const std::string& pattern, std::string_view metric, Direction direction);

}  // namespace perfzero::compare
