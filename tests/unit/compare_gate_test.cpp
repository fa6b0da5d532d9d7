// The one verdict policy (compare/gate.hpp): what each verdict means for the gate, and the exit
// status of the rows together, with and without --pass_on.
#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "compare/gate.hpp"

namespace perfzero::compare::compare_gate_test {
namespace {

MetricComparison row(Verdict v, bool gated = true, int baseline_trials = 5, int candidate_trials = 5) {
  MetricComparison m;
  m.case_name = "fam.A.m";
  m.metric = "wall_time";
  m.verdict = v;
  m.gated = gated;
  m.baseline.succeeded = baseline_trials;
  m.candidate.succeeded = candidate_trials;
  return m;
}

RunComparison report_of(std::vector<MetricComparison> rows, PassOn pass_on = {}) {
  RunComparison r;
  r.rows = std::move(rows);
  r.settings.pass_on = pass_on;
  return r;
}

TEST(Gate, EachVerdictMeansOneThingForTheGate) {
  EXPECT_EQ(row_gate(row(Verdict::slower)), RowGate::slower);
  EXPECT_EQ(row_gate(row(Verdict::slower, false)), RowGate::not_gated);
  for (const Verdict v :
       {Verdict::faster, Verdict::same, Verdict::below_threshold, Verdict::equivalent, Verdict::changed}) {
    EXPECT_EQ(row_gate(row(v)), RowGate::passes) << to_string(v);
  }
  for (const Verdict v : {Verdict::too_noisy, Verdict::unreliable, Verdict::unknown}) {
    EXPECT_EQ(row_gate(row(v)), RowGate::undecided) << to_string(v);
  }
  EXPECT_EQ(row_gate(row(Verdict::missing, true, 5, 0)), RowGate::no_measurement) << "the candidate failed";
  EXPECT_EQ(row_gate(row(Verdict::missing, true, 0, 0)), RowGate::no_measurement) << "neither measured";
  EXPECT_EQ(row_gate(row(Verdict::missing, true, 0, 5)), RowGate::not_judged) << "a case new in the candidate";
}

TEST(Gate, ASlowerOrEmptyCandidateFailsAndAnUndecidedRowHasItsOwnStatus) {
  EXPECT_EQ(gate(report_of({row(Verdict::same), row(Verdict::faster)})).exit_status, 0);
  EXPECT_EQ(gate(report_of({})).exit_status, 0);
  EXPECT_EQ(gate(report_of({row(Verdict::same), row(Verdict::slower)})).exit_status, 1);
  const GateResult empty = gate(report_of({row(Verdict::missing, true, 5, 0)}));
  EXPECT_EQ(empty.exit_status, 1);
  EXPECT_EQ(empty.status, GateStatus::failed);
  EXPECT_EQ(empty.no_measurement, 1);
  const GateResult noisy = gate(report_of({row(Verdict::same), row(Verdict::too_noisy)}));
  EXPECT_EQ(noisy.exit_status, to_int(ExitCode::undecided));
  EXPECT_EQ(noisy.status, GateStatus::undecided);
  // A failure wins over an undecided row; a row --metrics leaves out never counts.
  EXPECT_EQ(gate(report_of({row(Verdict::unreliable), row(Verdict::slower)})).exit_status, 1);
  EXPECT_EQ(gate(report_of({row(Verdict::slower, false), row(Verdict::unknown, false)})).exit_status, 0);
}

TEST(Gate, PassOnAcceptsWhatItNamesAndNothingElse) {
  EXPECT_EQ(gate(report_of({row(Verdict::too_noisy)}, {true, false})).exit_status, 0);
  EXPECT_EQ(gate(report_of({row(Verdict::missing, true, 5, 0)}, {true, false})).exit_status, 1);
  EXPECT_EQ(gate(report_of({row(Verdict::missing, true, 5, 0)}, {false, true})).exit_status, 0);
  EXPECT_EQ(gate(report_of({row(Verdict::too_noisy)}, {false, true})).exit_status, 5);
  EXPECT_EQ(gate(report_of({row(Verdict::slower)}, {true, true})).exit_status, 1) << "a slowdown is never accepted";
  EXPECT_TRUE(fails_gate(row(Verdict::too_noisy), {}));
  EXPECT_FALSE(fails_gate(row(Verdict::too_noisy), {true, false}));
}

TEST(Gate, TheGateLineSaysTheStatusTheExitAndWhy) {
  EXPECT_EQ(gate_line(report_of({row(Verdict::same)})), "gate: passed (exit 0)\n");
  EXPECT_EQ(gate_line(report_of({row(Verdict::slower), row(Verdict::missing, true, 5, 0)})),
            "gate: failed (exit 1): 1 slower, 1 with no measurement from the candidate\n");
  EXPECT_EQ(gate_line(report_of({row(Verdict::unknown)})),
            "gate: undecided (exit 5): 1 undecided (too noisy, unreliable, confounded or unknown); --pass_on=undecided "
            "accepts "
            "them\n");
  EXPECT_EQ(gate_line(report_of({row(Verdict::unknown)}, {true, false})),
            "gate: passed (exit 0): 1 undecided (accepted: --pass_on=undecided)\n");
}

}  // namespace
}  // namespace perfzero::compare::compare_gate_test
