// Arm bfdot (FEAT_BF16; compiled with -march=armv8.2-a+bf16, called only where HWCAP2_BF16 says so):
// each of four fp32 lanes accumulates a dot product of two bf16 pairs, 4 FLOPs per lane.
#include <arm_neon.h>

#include "peak/fma_kernels.hpp"
#include "peak/unroll.hpp"

namespace perfzero::peak::detail {

KernelRun neon_bf16(std::uint64_t iterations) {
  // 2^-20 keeps the sums far from overflow over any run length.
  const bfloat16x8_t x = vreinterpretq_bf16_u16(vdupq_n_u16(0x3580));
  const bfloat16x8_t y = x;
#define DECL(i) float32x4_t a##i = vdupq_n_f32(1.0F + 0.001F * (i));
#define STEP(i) a##i = vbfdotq_f32(a##i, x, y);
#define SUM(i) s = vaddq_f32(s, a##i);
  PERFZERO_REP16(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP16(STEP)
    PERFZERO_REP16(PERFZERO_KEEP)
  }
  float32x4_t s = vdupq_n_f32(0.0F);
  PERFZERO_REP16(SUM)
#undef DECL
#undef STEP
#undef SUM
  return {static_cast<double>(iterations) * 16 * 4 * 4, static_cast<double>(vaddvq_f32(s))};
}

}  // namespace perfzero::peak::detail
