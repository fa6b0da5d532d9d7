// Arm SVE (compiled with -march=armv8.2-a+sve, called only where HWCAP_SVE says so): the vector
// length is the hardware's (256 bits on Neoverse V1, 128 on V2), read at run time with svcntw.
#include <arm_sve.h>

#include "peak/fma_kernels.hpp"
#include "peak/unroll.hpp"

namespace perfzero::peak::detail {

KernelRun sve_fp32(std::uint64_t iterations) {
  const svbool_t all = svptrue_b32();
  const svfloat32_t m = svdup_f32(0.999999F);
  const svfloat32_t c = svdup_f32(1e-6F);
#define DECL(i) svfloat32_t a##i = svdup_f32(1.0F + 0.001F * (i));
#define STEP(i) a##i = svmad_f32_x(all, a##i, m, c);
#define SUM(i) s = svadd_f32_x(all, s, a##i);
  PERFZERO_REP16(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP16(STEP)
    PERFZERO_REP16(PERFZERO_KEEP)
  }
  svfloat32_t s = svdup_f32(0.0F);
  PERFZERO_REP16(SUM)
#undef DECL
#undef STEP
#undef SUM
  const double lanes = static_cast<double>(svcntw());
  return {static_cast<double>(iterations) * 16 * lanes * 2, static_cast<double>(svaddv_f32(all, s))};
}

KernelRun sve_fp64(std::uint64_t iterations) {
  const svbool_t all = svptrue_b64();
  const svfloat64_t m = svdup_f64(0.999999);
  const svfloat64_t c = svdup_f64(1e-6);
#define DECL(i) svfloat64_t a##i = svdup_f64(1.0 + 0.001 * (i));
#define STEP(i) a##i = svmad_f64_x(all, a##i, m, c);
#define SUM(i) s = svadd_f64_x(all, s, a##i);
  PERFZERO_REP16(DECL)
  for (std::uint64_t n = 0; n < iterations; ++n) {
    PERFZERO_REP16(STEP)
    PERFZERO_REP16(PERFZERO_KEEP)
  }
  svfloat64_t s = svdup_f64(0.0);
  PERFZERO_REP16(SUM)
#undef DECL
#undef STEP
#undef SUM
  const double lanes = static_cast<double>(svcntd());
  return {static_cast<double>(iterations) * 16 * lanes * 2, svaddv_f64(all, s)};
}

}  // namespace perfzero::peak::detail
