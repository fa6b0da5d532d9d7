#pragma once
// The speed cube's answer, checked and reported the same way by the one-host family (speedcube.*)
// and the cross-rank one (mpi.SpeedCube.*).
#include "perfzero/benchmark.hpp"
#include "speedcube/speedcube.hpp"

namespace perfzero::speedcube {

// Reports the mean with bounds (the harness fails the run outside them), its error and the points
// per second over `seconds`, and checks the mean of all points as well; returns false, having
// failed the context, when the answer is wrong.
bool report_result(Context& ctx, const Problem& p, const Sums& sums, double seconds);

}  // namespace perfzero::speedcube
