#pragma once
// When `perfzero ab` looks at its pairs, and at what level, so that looking after every few pairs
// does not raise the chance of a false alarm above --alpha (docs/compare.md, "The sequential design").
//
// A group-sequential design with an alpha-spending function (Lan & DeMets 1983): looks are planned at
// pair counts n_1 < n_2 < ... < n_K = max pairs (information t_k = n_k / max pairs); by look k at most
// alpha(t_k) = alpha * ln(1 + (e - 1) t_k) has been spent (Pocock's shape: early looks get a fair
// share, so a clear change stops early). The boundary c_k of each look is found by numerical
// integration over the standardized statistic's joint distribution under "no change" (a Brownian
// motion in information time, as the signed-rank statistic is asymptotically), so that the chance of
// first crossing at look k is exactly alpha(t_k) - alpha(t_{k-1}). Each look then judges with the
// distribution-free interval at the nominal level 2 (1 - Phi(c_k)): these are Jennison & Turnbull's
// repeated confidence intervals, which cover the true change at every look at once with probability
// 1 - alpha, whatever the stopping rule.
#include <cstddef>
#include <vector>

namespace perfzero::compare {

struct LookPlan {
  int max_pairs = 0;
  double alpha = 0.05;
  std::vector<int> pairs;             // the planned looks, increasing, the last = max_pairs
  std::vector<double> boundary;       // c_k, the |z| a look's statistic must exceed
  std::vector<double> nominal_alpha;  // 2 (1 - Phi(c_k)): the two-sided level each look's interval uses
  std::vector<double> spent;          // alpha(t_k), cumulative
};

// The first look is at `first_look` pairs (10 by default: the signed-rank test can reach the first
// look's level from about 9 pairs on), then each about 25 % later, then max_pairs.
LookPlan plan_looks(int max_pairs, double alpha, int first_look = 10);

// The spending function: the alpha that may be spent by information time t (0..1).
double alpha_spent(double t, double alpha);

// The level of an extra, last look at `pairs` (between planned looks `done` - 1 and `done`, counted
// from 0) when the time budget ends the session early: it spends all the alpha not yet spent.
double last_look_alpha(const LookPlan& plan, std::size_t done, int pairs);

// The boundaries c_k for looks at information times `t` spending `increments` (each look's share).
std::vector<double> spending_boundaries(const std::vector<double>& t, const std::vector<double>& increments);

}  // namespace perfzero::compare
