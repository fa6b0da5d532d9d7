// Arm NEON (every AArch64 CPU): fp32 and fp64 FMA. Sixteen accumulators of the 32 V registers: four
// 128-bit FMA pipes (Neoverse V1, V2) x four cycles of latency.
#include <arm_neon.h>

#include "peak/fma_kernels.hpp"
#include "peak/unroll.hpp"

namespace perfzero::peak::detail {

KernelRun neon_fp32(std::uint64_t iterations) {
  const float32x4_t m = vdupq_n_f32(0.999999F);
  const float32x4_t c = vdupq_n_f32(1e-6F);
#define DECL(i) float32x4_t a##i = vdupq_n_f32(1.0F + 0.001F * (i));
#define STEP(i) a##i = vfmaq_f32(c, a##i, m);
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
  return {static_cast<double>(iterations) * 16 * 4 * 2, static_cast<double>(vaddvq_f32(s))};
}

KernelRun neon_fp64(std::uint64_t iterations) {
  const float64x2_t m = vdupq_n_f64(0.999999);
  const float64x2_t c = vdupq_n_f64(1e-6);
#define DECL(i) float64x2_t a##i = vdupq_n_f64(1.0 + 0.001 * (i));
#define STEP(i) a##i = vfmaq_f64(c, a##i, m);
#define SUM(i) s = vaddq_f64(s, a##i);
  PERFZERO_REP16(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP16(STEP)
    PERFZERO_REP16(PERFZERO_KEEP)
  }
  float64x2_t s = vdupq_n_f64(0.0);
  PERFZERO_REP16(SUM)
#undef DECL
#undef STEP
#undef SUM
  return {static_cast<double>(iterations) * 16 * 2 * 2, vaddvq_f64(s)};
}

}  // namespace perfzero::peak::detail
