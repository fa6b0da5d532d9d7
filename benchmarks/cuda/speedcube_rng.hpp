#pragma once
// The speed cube's points on the GPU: the same Philox4x32-10 by point index and the same
// Box-Muller mapping as the CPU family (benchmarks/speedcube/), so both draw the same array. Host
// and device code: the host path lets tests compare it with the CPU family's generator, and the
// GPU methods check points the GPU drew against it.
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define PERFZERO_HOST_DEVICE __host__ __device__
#else
#define PERFZERO_HOST_DEVICE
#endif

namespace perfzero::cuda::speedcube {

struct Words {
  std::uint32_t w0, w1, w2, w3;
};

PERFZERO_HOST_DEVICE inline std::uint32_t mul_hi(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
}

// Philox4x32-10 in 32-bit words (the CPU family keeps them in 64-bit lanes for its vectorizer;
// the arithmetic is the same).
PERFZERO_HOST_DEVICE inline Words philox4x32_10(std::uint64_t counter, std::uint64_t key) {
  constexpr std::uint32_t kM0 = 0xD2511F53U;
  constexpr std::uint32_t kM1 = 0xCD9E8D57U;
  constexpr std::uint32_t kW0 = 0x9E3779B9U;
  constexpr std::uint32_t kW1 = 0xBB67AE85U;
  std::uint32_t c0 = static_cast<std::uint32_t>(counter);
  std::uint32_t c1 = static_cast<std::uint32_t>(counter >> 32);
  std::uint32_t c2 = 0;
  std::uint32_t c3 = 0;
  std::uint32_t k0 = static_cast<std::uint32_t>(key);
  std::uint32_t k1 = static_cast<std::uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    const std::uint32_t hi0 = mul_hi(kM0, c0);
    const std::uint32_t lo0 = kM0 * c0;
    const std::uint32_t hi1 = mul_hi(kM1, c2);
    const std::uint32_t lo1 = kM1 * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += kW0;
    k1 += kW1;
  }
  return {c0, c1, c2, c3};
}

struct FourPoints {
  double x0, x1, x2, x3;
};

// sin and cos of pi*t for t in (-1, 1).
PERFZERO_HOST_DEVICE inline void sin_cos_pi(double t, double& s, double& c) {
#if defined(__CUDA_ARCH__)
  sincospi(t, &s, &c);
#else
  s = std::sin(M_PI * t);
  c = std::cos(M_PI * t);
#endif
}

// The CPU family's mapping: u = (w + 0.5) / 2^32, radius sqrt(-2 ln u_a), angle 2*pi*(u_b - 1/2);
// points 0 and 1 from (w0, w1), 2 and 3 from (w2, w3), each N(10, 1).
PERFZERO_HOST_DEVICE inline FourPoints four_points(std::uint64_t counter, std::uint64_t key) {
  constexpr double kInv2Pow32 = 1.0 / 4294967296.0;
  constexpr double kMean = 10.0;
  const Words w = philox4x32_10(counter, key);
  const double ua = (static_cast<double>(w.w0) + 0.5) * kInv2Pow32;
  const double ub = (static_cast<double>(w.w1) + 0.5) * kInv2Pow32;
  const double uc = (static_cast<double>(w.w2) + 0.5) * kInv2Pow32;
  const double ud = (static_cast<double>(w.w3) + 0.5) * kInv2Pow32;
  const double ra = sqrt(-2.0 * log(ua));
  const double rc = sqrt(-2.0 * log(uc));
  double sa = 0;
  double ca = 0;
  double sc = 0;
  double cc = 0;
  sin_cos_pi(2.0 * (ub - 0.5), sa, ca);
  sin_cos_pi(2.0 * (ud - 0.5), sc, cc);
  return {kMean + ra * ca, kMean + ra * sa, kMean + rc * cc, kMean + rc * sc};
}

// The point at (row, col) of the n x n array: col is a multiple of 4 in a group's first point.
PERFZERO_HOST_DEVICE inline std::uint64_t counter_of(std::int64_t n, std::int64_t row, std::int64_t col) {
  return static_cast<std::uint64_t>(row * n + col) / 4;
}

}  // namespace perfzero::cuda::speedcube
