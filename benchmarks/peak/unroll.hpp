#pragma once
// Straight-line repetition for the kernels: N independent accumulators a0..a(N-1), written out so
// every one stays in its own register at any optimisation level (a loop over an array may not be
// unrolled at -O2). Macros only, for the reason fma_kernels.hpp gives.
#define PERFZERO_REP12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define PERFZERO_REP16(X) PERFZERO_REP12(X) X(12) X(13) X(14) X(15)

// Each accumulator made opaque to the optimizer once per iteration, with no instruction emitted:
// clang (at -O2, the kernels' level) otherwise sees through the multiply-add recurrence and drops
// the loop (6e8 "GFLOP/s"), which g++ happens not to do. A kernel writes
// PERFZERO_REP12(PERFZERO_KEEP) after its steps; the accumulators must be named a0..aN.
#if defined(__x86_64__) || defined(__i386__)
#define PERFZERO_OPAQUE(v) __asm__ volatile("" : "+v"(v))
#elif defined(__aarch64__)
#define PERFZERO_OPAQUE(v) __asm__ volatile("" : "+w"(v))
#else
#error "PERFZERO_OPAQUE: no register constraint for this architecture"
#endif
#define PERFZERO_KEEP(i) PERFZERO_OPAQUE(a##i);
