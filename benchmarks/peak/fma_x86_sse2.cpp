// SSE2 fallback (every x86-64 CPU): no FMA instruction, so a multiply and a dependent add, two FLOPs
// per lane like an FMA. Twelve chains keep two multiply and two add pipes busy.
#include <emmintrin.h>

#include "peak/fma_kernels.hpp"
#include "peak/unroll.hpp"

namespace perfzero::peak::detail {

KernelRun sse2_fp32(std::uint64_t iterations) {
  const __m128 m = _mm_set1_ps(0.999999F);
  const __m128 c = _mm_set1_ps(1e-6F);
#define DECL(i) __m128 a##i = _mm_set1_ps(1.0F + 0.001F * (i));
#define STEP(i) a##i = _mm_add_ps(_mm_mul_ps(a##i, m), c);
#define SUM(i) s = _mm_add_ps(s, a##i);
  PERFZERO_REP12(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP12(STEP)
    PERFZERO_REP12(PERFZERO_KEEP)
  }
  __m128 s = _mm_setzero_ps();
  PERFZERO_REP12(SUM)
#undef DECL
#undef STEP
#undef SUM
  return {static_cast<double>(iterations) * 12 * 4 * 2, static_cast<double>(_mm_cvtss_f32(s))};
}

KernelRun sse2_fp64(std::uint64_t iterations) {
  const __m128d m = _mm_set1_pd(0.999999);
  const __m128d c = _mm_set1_pd(1e-6);
#define DECL(i) __m128d a##i = _mm_set1_pd(1.0 + 0.001 * (i));
#define STEP(i) a##i = _mm_add_pd(_mm_mul_pd(a##i, m), c);
#define SUM(i) s = _mm_add_pd(s, a##i);
  PERFZERO_REP12(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP12(STEP)
    PERFZERO_REP12(PERFZERO_KEEP)
  }
  __m128d s = _mm_setzero_pd();
  PERFZERO_REP12(SUM)
#undef DECL
#undef STEP
#undef SUM
  return {static_cast<double>(iterations) * 12 * 2 * 2, _mm_cvtsd_f64(s)};
}

}  // namespace perfzero::peak::detail
