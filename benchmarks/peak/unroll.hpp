#pragma once
// Straight-line repetition for the kernels: N independent accumulators a0..a(N-1), written out so
// every one stays in its own register at any optimisation level (a loop over an array may not be
// unrolled at -O2). Macros only, for the reason fma_kernels.hpp gives.
#define PERFZERO_REP12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define PERFZERO_REP16(X) PERFZERO_REP12(X) X(12) X(13) X(14) X(15)
