#pragma once
// Two runs made at different times (docs/compare.md, "Runs made at different times"): whatever else
// happened on the machine between them is confounded with the change. `compare` says so whenever it
// judged disturbed trials or the runs' host load differed, and a direction read there, either way, is
// not a decided verdict: `confounded`, undecided for the gate (a load can push a reading both ways).
#include <optional>
#include <string>

#include "compare/compare_runs.hpp"
#include "results/model.hpp"

namespace perfzero::compare {

// When a run ran, in epoch seconds: its start, and the end of its last trial.
struct RunSpan {
  double start = 0;
  double end = 0;
  bool known() const { return start > 0 && end >= start; }
};
RunSpan run_span(const results::Run& run);

// The two runs ran at the same time (their spans overlap, as `ab`'s two runs do). Unknown spans are
// not shown to overlap.
bool ran_together(const RunSpan& a, const RunSpan& b);

// How busy the host was during one case's succeeded trials.
struct CaseLoad {
  int trials = 0;                         // succeeded, not warm-up
  int disturbed = 0;                      // of those, flagged (results/flags.hpp)
  std::optional<double> other_busy_cpus;  // median over the trials that read it (samplers/host_load_sampler.hpp)
};
CaseLoad case_load(const results::Case& c);

// Which side the load made look worse: the one with at least kBusierShare more of its trials
// disturbed, or with kBusierCpus more other CPUs busy (median). Neither when they are alike.
enum class BusierSide { neither, baseline, candidate };
inline constexpr double kBusierShare = 0.25;
inline constexpr double kBusierCpus = 0.5;
BusierSide busier_side(const CaseLoad& baseline, const CaseLoad& candidate);

// Marks `report` (two runs, not an `ab` session) when the runs did not run together: each row whose
// case used disturbed trials (--use_flagged) or whose host load differed says so in its reason, a
// direction becomes `confounded`, and report.confounding holds the warning.
void mark_confounding(RunComparison& report, const results::Run& baseline, const results::Run& candidate);

}  // namespace perfzero::compare
