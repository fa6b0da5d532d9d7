#pragma once
// The speed cube's points on the GPU: the same Philox4x32-10 by point index and the same
// Box-Muller mapping as the CPU family (benchmarks/speedcube/), so both draw the same array. Host
// and device code: the host path lets tests compare it with the CPU family's generator, and the
// GPU methods check points the GPU drew against it.
#include <cmath>
#include <cstdint>
#include <cstring>

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

// The GPU kernels' Box-Muller: the same mapping as four_points, with log, sin and cos taken from a
// small table plus a short polynomial instead of CUDA's general double-precision functions, which
// handle every argument (infinities, denormals, huge angles) and cost about as many instructions
// as the rest of the kernel. Here the arguments are known: u = (w + 0.5) / 2^32 and angles pi * t
// with t in (-1, 1). sin and cos are good to 1e-15; ln u to 4e-16 of max(1, |ln u|), which near
// u = 1, where ln u is tiny, leaves a radius sqrt(-2 ln u) up to about 5e-13 off (the CPU family's
// inline series are good to about 1e-13). A unit test compares it with four_points over the whole range.
// 16-byte aligned pairs: one shared-memory load on the GPU.
struct alignas(16) TablePair {
  double first, second;
};

struct BoxMullerTables {
  static constexpr int kLogCells = 128;    // mantissas [1, 2) in cells of 1/128
  static constexpr int kAngleSteps = 128;  // angles pi * k / 128, k in [-128, 128]
  TablePair log_cell[kLogCells];           // (ln c, 1 / c) for the cell's centre c = 1 + (i + 0.5) / 128
  TablePair angle[2 * kAngleSteps + 1];    // (sin, cos) of pi * k / 128, indexed by k + 128
};

inline BoxMullerTables make_box_muller_tables() {
  BoxMullerTables t{};
  for (int i = 0; i < BoxMullerTables::kLogCells; ++i) {
    const double c = 1.0 + (i + 0.5) / BoxMullerTables::kLogCells;
    t.log_cell[i] = {std::log(c), 1.0 / c};
  }
  for (int k = -BoxMullerTables::kAngleSteps; k <= BoxMullerTables::kAngleSteps; ++k) {
    const double a = M_PI * k / BoxMullerTables::kAngleSteps;
    t.angle[k + BoxMullerTables::kAngleSteps] = {std::sin(a), std::cos(a)};
  }
  return t;
}

// ln((w + 0.5) / 2^32): x = w + 0.5 = m * 2^e exactly, m in [1, 2) falls in a cell with centre c,
// ln x = e ln 2 + ln c + ln(1 + r) with r = m / c - 1, |r| < 2^-8, where the series to r^6 leaves
// an error under r^7 / 7 (3e-18).
PERFZERO_HOST_DEVICE inline double log_uniform(std::uint32_t w, const BoxMullerTables& t) {
  constexpr double kLn2 = 0.693147180559945309417;
  const double x = static_cast<double>(w) + 0.5;
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  const int e = static_cast<int>(bits >> 52) - 1023;
  const auto cell = static_cast<int>((bits >> 45) & 127U);
  const std::uint64_t m_bits = (bits & 0x000FFFFFFFFFFFFFULL) | 0x3FF0000000000000ULL;
  double m = 0;
  std::memcpy(&m, &m_bits, sizeof m);
  const TablePair c = t.log_cell[cell];
  const double r = std::fma(m, c.second, -1.0);
  double p = -1.0 / 6;
  p = std::fma(p, r, 1.0 / 5);
  p = std::fma(p, r, -1.0 / 4);
  p = std::fma(p, r, 1.0 / 3);
  p = std::fma(p, r, -1.0 / 2);
  p = std::fma(p, r, 1.0);
  return std::fma(static_cast<double>(e - 32), kLn2, std::fma(p, r, c.first));
}

// sin and cos of pi * t for t = (w + 0.5) / 2^31 - 1 in (-1, 1): t = k / 128 + d with |d| <= 1/256,
// the angle sum of the table's pi k / 128 and phi = pi d (|phi| < 0.0123: sin to phi^5 and cos to
// phi^6 leave under 1e-17).
PERFZERO_HOST_DEVICE inline void sin_cos_pi_uniform(std::uint32_t w, const BoxMullerTables& t, double& s, double& c) {
  constexpr double kPi = 3.14159265358979323846;
  const double u = (static_cast<double>(w) + 0.5) * (1.0 / 2147483648.0) - 1.0;  // exact
  const double k = std::nearbyint(u * BoxMullerTables::kAngleSteps);
  const double phi = kPi * (u - k / BoxMullerTables::kAngleSteps);  // the difference is exact
  const double phi2 = phi * phi;
  const double sin_phi = phi * std::fma(std::fma(phi2, 1.0 / 120, -1.0 / 6), phi2, 1.0);
  const double cos_phi = std::fma(std::fma(std::fma(phi2, -1.0 / 720, 1.0 / 24), phi2, -0.5), phi2, 1.0);
  const TablePair a = t.angle[static_cast<int>(k) + BoxMullerTables::kAngleSteps];
  s = std::fma(a.first, cos_phi, a.second * sin_phi);
  c = std::fma(a.second, cos_phi, -(a.first * sin_phi));
}

// four_points through the tables: the same points within about 5e-13 (see above).
PERFZERO_HOST_DEVICE inline FourPoints four_points_tabled(std::uint64_t counter, std::uint64_t key,
                                                          const BoxMullerTables& t) {
  constexpr double kMean = 10.0;
  const Words w = philox4x32_10(counter, key);
  const double ra = sqrt(-2.0 * log_uniform(w.w0, t));
  const double rc = sqrt(-2.0 * log_uniform(w.w2, t));
  double sa = 0;
  double ca = 0;
  double sc = 0;
  double cc = 0;
  sin_cos_pi_uniform(w.w1, t, sa, ca);
  sin_cos_pi_uniform(w.w3, t, sc, cc);
  return {kMean + ra * ca, kMean + ra * sa, kMean + rc * cc, kMean + rc * sc};
}

// The point at (row, col) of the n x n array: col is a multiple of 4 in a group's first point.
PERFZERO_HOST_DEVICE inline std::uint64_t counter_of(std::int64_t n, std::int64_t row, std::int64_t col) {
  return static_cast<std::uint64_t>(row * n + col) / 4;
}

}  // namespace perfzero::cuda::speedcube
