// AVX-512F, and AVX512_BF16's vdpbf16ps (compiled with -mavx512f -mavx512bf16; each kernel is called
// only where the CPU has its extension). Sixteen accumulators of the 32 zmm registers: two 512-bit
// pipes x four cycles of latency need eight; Zen 5's longer pipelines and four FP pipes want more.
#include <immintrin.h>

#include "peak/fma_kernels.hpp"
#include "peak/unroll.hpp"

namespace perfzero::peak::detail {

KernelRun avx512_fp32(std::uint64_t iterations) {
  const __m512 m = _mm512_set1_ps(0.999999F);
  const __m512 c = _mm512_set1_ps(1e-6F);
#define DECL(i) __m512 a##i = _mm512_set1_ps(1.0F + 0.001F * (i));
#define STEP(i) a##i = _mm512_fmadd_ps(a##i, m, c);
#define SUM(i) s = _mm512_add_ps(s, a##i);
  PERFZERO_REP16(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP16(STEP)
    PERFZERO_REP16(PERFZERO_KEEP)
  }
  __m512 s = _mm512_setzero_ps();
  PERFZERO_REP16(SUM)
#undef DECL
#undef STEP
#undef SUM
  return {static_cast<double>(iterations) * 16 * 16 * 2, static_cast<double>(_mm512_cvtss_f32(s))};
}

KernelRun avx512_fp64(std::uint64_t iterations) {
  const __m512d m = _mm512_set1_pd(0.999999);
  const __m512d c = _mm512_set1_pd(1e-6);
#define DECL(i) __m512d a##i = _mm512_set1_pd(1.0 + 0.001 * (i));
#define STEP(i) a##i = _mm512_fmadd_pd(a##i, m, c);
#define SUM(i) s = _mm512_add_pd(s, a##i);
  PERFZERO_REP16(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP16(STEP)
    PERFZERO_REP16(PERFZERO_KEEP)
  }
  __m512d s = _mm512_setzero_pd();
  PERFZERO_REP16(SUM)
#undef DECL
#undef STEP
#undef SUM
  return {static_cast<double>(iterations) * 16 * 8 * 2, _mm512_cvtsd_f64(s)};
}

// vdpbf16ps: each of 16 fp32 lanes accumulates a dot product of two bf16 pairs, 4 FLOPs per lane.
// Small inputs (2^-20) keep the sums far from overflow over any run length.
KernelRun avx512_bf16(std::uint64_t iterations) {
  const __m512 tiny = _mm512_set1_ps(0x1p-20F);
  const __m512bh x = _mm512_cvtne2ps_pbh(tiny, tiny);
  const __m512bh y = _mm512_cvtne2ps_pbh(tiny, tiny);
#define DECL(i) __m512 a##i = _mm512_set1_ps(1.0F + 0.001F * (i));
#define STEP(i) a##i = _mm512_dpbf16_ps(a##i, x, y);
#define SUM(i) s = _mm512_add_ps(s, a##i);
  PERFZERO_REP16(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP16(STEP)
    PERFZERO_REP16(PERFZERO_KEEP)
  }
  __m512 s = _mm512_setzero_ps();
  PERFZERO_REP16(SUM)
#undef DECL
#undef STEP
#undef SUM
  return {static_cast<double>(iterations) * 16 * 16 * 4, static_cast<double>(_mm512_cvtss_f32(s))};
}

}  // namespace perfzero::peak::detail
