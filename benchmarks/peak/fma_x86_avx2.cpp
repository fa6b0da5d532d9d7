// AVX2 + FMA (compiled with -mavx2 -mfma; called only where the CPU has both). Twelve accumulators:
// two FMA pipes x four cycles of latency need eight, and twelve leave room for a third pipe.
#include <immintrin.h>

#include "peak/fma_kernels.hpp"
#include "peak/unroll.hpp"

namespace perfzero::peak::detail {

KernelRun avx2_fp32(std::uint64_t iterations) {
  const __m256 m = _mm256_set1_ps(0.999999F);
  const __m256 c = _mm256_set1_ps(1e-6F);
#define DECL(i) __m256 a##i = _mm256_set1_ps(1.0F + 0.001F * (i));
#define STEP(i) a##i = _mm256_fmadd_ps(a##i, m, c);
#define SUM(i) s = _mm256_add_ps(s, a##i);
  PERFZERO_REP12(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP12(STEP)
    PERFZERO_REP12(PERFZERO_KEEP)
  }
  __m256 s = _mm256_setzero_ps();
  PERFZERO_REP12(SUM)
#undef DECL
#undef STEP
#undef SUM
  return {static_cast<double>(iterations) * 12 * 8 * 2, static_cast<double>(_mm256_cvtss_f32(s))};
}

KernelRun avx2_fp64(std::uint64_t iterations) {
  const __m256d m = _mm256_set1_pd(0.999999);
  const __m256d c = _mm256_set1_pd(1e-6);
#define DECL(i) __m256d a##i = _mm256_set1_pd(1.0 + 0.001 * (i));
#define STEP(i) a##i = _mm256_fmadd_pd(a##i, m, c);
#define SUM(i) s = _mm256_add_pd(s, a##i);
  PERFZERO_REP12(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP12(STEP)
    PERFZERO_REP12(PERFZERO_KEEP)
  }
  __m256d s = _mm256_setzero_pd();
  PERFZERO_REP12(SUM)
#undef DECL
#undef STEP
#undef SUM
  return {static_cast<double>(iterations) * 12 * 4 * 2, _mm256_cvtsd_f64(s)};
}

}  // namespace perfzero::peak::detail
