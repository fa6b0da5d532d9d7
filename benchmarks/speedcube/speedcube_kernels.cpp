// The speed cube's kernels. Built with -O3 -ffast-math (see CMakeLists.txt) so GCC vectorizes the
// Box-Muller loop with glibc's libmvec log/sin/cos; target_clones picks AVX-512, AVX2 or baseline
// code at load time, so one binary runs well on any x86-64 cloud machine.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <numbers>
#include <vector>

#include "common/parallel.hpp"
#include "speedcube/philox.hpp"
#include "speedcube/speedcube.hpp"

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define PERFZERO_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define PERFZERO_CLONES
#endif

namespace perfzero::speedcube {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kInv2Pow32 = 1.0 / 4294967296.0;
constexpr double kMean = 10.0;

// sin and cos of x in (-pi, pi): Taylor series of sin and cos of h = x/2 (|h| < pi/2) to h^17 and
// h^18 (truncation error below 1e-13), then sin x = 2 sin(h) cos(h), cos x = 1 - 2 sin(h)^2.
// libmvec's cos, with its general range reduction, was a quarter of the time; this inlines and
// vectorizes.
constexpr int kTerms = 10;
struct TaylorCoefficients {
  std::array<double, kTerms> sin{};  // (-1)^i / (2i+1)!
  std::array<double, kTerms> cos{};  // (-1)^i / (2i)!
};
constexpr TaylorCoefficients make_coefficients() {
  TaylorCoefficients t;
  double factorial = 1.0;  // n!
  for (int n = 0; n < 2 * kTerms; ++n) {
    if (n > 0) factorial *= n;
    const double term = ((n / 2) % 2 == 0 ? 1.0 : -1.0) / factorial;
    if (n % 2 == 0) {
      t.cos[static_cast<std::size_t>(n / 2)] = term;
    } else {
      t.sin[static_cast<std::size_t>(n / 2)] = term;
    }
  }
  return t;
}
constexpr TaylorCoefficients kTaylor = make_coefficients();

inline void sin_cos(double x, double& sin_x, double& cos_x) {
  const double h = 0.5 * x;
  const double h2 = h * h;
  double s = kTaylor.sin[kTerms - 1];
  for (int i = kTerms - 2; i >= 0; --i) s = s * h2 + kTaylor.sin[static_cast<std::size_t>(i)];
  s *= h;
  double c = kTaylor.cos[kTerms - 1];
  for (int i = kTerms - 2; i >= 0; --i) c = c * h2 + kTaylor.cos[static_cast<std::size_t>(i)];
  sin_x = 2.0 * s * c;
  cos_x = 1.0 - 2.0 * s * s;
}

// Natural log of x > 0 (normal numbers), inline so it vectorizes without calls: x = m * 2^e with m
// in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s) with s = (m-1)/(m+1), |s| < 0.172, from the series to
// s^17 (error below 1e-15). libmvec's log was a quarter of the time, much of it spilling vector
// registers around the calls.
inline double log_positive(double x) {
  constexpr std::uint64_t kMantissa = 0x000FFFFFFFFFFFFFULL;
  constexpr std::uint64_t kOne = 0x3FF0000000000000ULL;
  constexpr double kLn2 = std::numbers::ln2;
  constexpr double kSqrt2 = std::numbers::sqrt2;
  const auto bits = std::bit_cast<std::uint64_t>(x);
  double m = std::bit_cast<double>((bits & kMantissa) | kOne);  // [1, 2)
  // The exponent as a double without an int64 conversion instruction: OR it into the mantissa of
  // 2^52 and subtract.
  double e = std::bit_cast<double>((bits >> 52) | 0x4330000000000000ULL) - (4503599627370496.0 + 1023.0);
  const bool high = m > kSqrt2;
  m = high ? m * 0.5 : m;
  e = high ? e + 1.0 : e;
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double series = 1.0 / 17.0;
  for (int k = 15; k >= 1; k -= 2) series = series * s2 + 1.0 / k;
  return e * kLn2 + 2.0 * s * series;
}

// Structure-of-arrays scratch for one row segment: four words, then four normals, per counter.
struct Scratch {
  explicit Scratch(std::size_t groups) : w(4 * groups), x(4 * groups) {}
  std::vector<std::uint32_t> w;
  std::vector<double> x;
};

// Philox words for `groups` consecutive counters, as four arrays (w0 | w1 | w2 | w3).
PERFZERO_CLONES
void philox_words(std::uint64_t first_counter, std::uint64_t key, std::size_t groups, std::uint32_t* w) {
  for (std::size_t g = 0; g < groups; ++g) {
    const PhiloxWords r = philox4x32_10(first_counter + g, key);
    w[g] = r.w0;
    w[groups + g] = r.w1;
    w[2 * groups + g] = r.w2;
    w[3 * groups + g] = r.w3;
  }
}

// Box-Muller: (w0, w1) -> points 0 and 1, (w2, w3) -> points 2 and 3; +0.5 keeps u in (0, 1).
// The angle 2*pi*u is taken as x = 2*pi*(u - 1/2) in (-pi, pi): cos(2*pi*u) = -cos(x) and
// sin(2*pi*u) = -sin(x); the sign does not matter for a symmetric distribution, so x is used as is.
struct FourNormals {
  double x0, x1, x2, x3;
};
inline FourNormals box_muller(std::uint32_t w0, std::uint32_t w1, std::uint32_t w2, std::uint32_t w3) {
  const double ua = (static_cast<double>(w0) + 0.5) * kInv2Pow32;
  const double ub = (static_cast<double>(w1) + 0.5) * kInv2Pow32;
  const double uc = (static_cast<double>(w2) + 0.5) * kInv2Pow32;
  const double ud = (static_cast<double>(w3) + 0.5) * kInv2Pow32;
  const double ra = std::sqrt(-2.0 * log_positive(ua));
  const double rc = std::sqrt(-2.0 * log_positive(uc));
  double sa = 0;
  double ca = 0;
  double sc = 0;
  double cc = 0;
  sin_cos(kTwoPi * (ub - 0.5), sa, ca);
  sin_cos(kTwoPi * (ud - 0.5), sc, cc);
  return {kMean + ra * ca, kMean + ra * sa, kMean + rc * cc, kMean + rc * sc};
}

// Generates `groups` groups of four normals into s.x: x[g], x[G+g], x[2G+g], x[3G+g] are the points
// at columns 4g, 4g+1, 4g+2, 4g+3 of the segment.
PERFZERO_CLONES
void generate_groups(std::uint64_t first_counter, std::uint64_t key, std::size_t groups, Scratch& s) {
  philox_words(first_counter, key, groups, s.w.data());
  const std::uint32_t* w = s.w.data();
  double* x = s.x.data();
  for (std::size_t g = 0; g < groups; ++g) {
    const FourNormals n = box_muller(w[g], w[groups + g], w[2 * groups + g], w[3 * groups + g]);
    x[g] = n.x0;
    x[groups + g] = n.x1;
    x[2 * groups + g] = n.x2;
    x[3 * groups + g] = n.x3;
  }
}

// Generates and reduces in one pass, storing nothing but the words: every point goes into `all`,
// the even columns (x0, x2: segments start at column multiples of 4) into `even`.
PERFZERO_CLONES
void generate_and_sum(std::uint64_t first_counter, std::uint64_t key, std::size_t groups, Scratch& s, double& all,
                      double& even) {
  philox_words(first_counter, key, groups, s.w.data());
  const std::uint32_t* w = s.w.data();
  double sum_all = 0;
  double sum_even = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    const FourNormals n = box_muller(w[g], w[groups + g], w[2 * groups + g], w[3 * groups + g]);
    const double e = n.x0 + n.x2;
    sum_even += e;
    sum_all += e + n.x1 + n.x3;
  }
  all = sum_all;
  even = sum_even;
}

std::uint64_t counter_of(const Problem& p, std::int64_t row, std::int64_t col) {
  return static_cast<std::uint64_t>(row * p.n + col) / 4;
}

// Chunks are numbered row-major; threads take the next chunk of [first, last) from a shared
// counter, as Dask's scheduler hands out tasks. Each chunk's sums are kept apart, so adding them in
// chunk order (add_in_chunk_order) does not depend on which thread, or which rank, did what.
template <typename ChunkFn>
std::vector<Sums> for_each_chunk(const Problem& p, ChunkRange range, ChunkFn chunk_fn) {
  const std::int64_t per_side = p.n / p.chunk;
  std::vector<Sums> per_chunk(static_cast<std::size_t>(range.last - range.first));
  std::atomic<std::int64_t> next{range.first};
  bench::run_on_threads(p.threads, [&](int) {
    for (std::int64_t c = next++; c < range.last; c = next++) {
      chunk_fn(c / per_side * p.chunk, c % per_side * p.chunk, per_chunk[static_cast<std::size_t>(c - range.first)]);
    }
  });
  return per_chunk;
}

template <typename ChunkFn>
Sums for_each_chunk(const Problem& p, ChunkFn chunk_fn) {
  return add_in_chunk_order(for_each_chunk(p, ChunkRange{0, chunk_count(p)}, chunk_fn));
}

}  // namespace

std::int64_t chunk_count(const Problem& p) { return (p.n / p.chunk) * (p.n / p.chunk); }

Sums add_in_chunk_order(const std::vector<Sums>& per_chunk) {
  Sums total;
  for (const Sums& s : per_chunk) {
    total.all += s.all;
    total.selected += s.selected;
    total.all_count += s.all_count;
    total.selected_count += s.selected_count;
  }
  return total;
}

std::string validate(const Problem& p) {
  if (p.n <= 0 || p.chunk <= 0) return "n and chunk must be positive";
  if (p.chunk % 16 != 0) return "chunk must be a multiple of 16";
  if (p.n % p.chunk != 0) return "n must be a multiple of chunk";
  if (p.threads < 1) return "threads must be at least 1";
  return "";
}

void generate_row_segment(const Problem& p, std::int64_t row, std::int64_t col, std::int64_t count, double* out) {
  const auto groups = static_cast<std::size_t>(count / 4);
  Scratch s(groups);
  generate_groups(counter_of(p, row, col), p.seed, groups, s);
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::size_t t = 0; t < 4; ++t) out[4 * g + t] = s.x[t * groups + g];
  }
}

namespace {

// One chunk generated row by row into a small buffer and reduced there.
auto fused_chunk(const Problem& p) {
  return [&p](std::int64_t row0, std::int64_t col0, Sums& sums) {
    const auto groups = static_cast<std::size_t>(p.chunk / 4);
    Scratch s(groups);  // one chunk row of words: 8 KiB at the default chunk, in L1
    for (std::int64_t row = row0; row < row0 + p.chunk; ++row) {
      double all = 0;
      double even = 0;
      generate_and_sum(counter_of(p, row, col0), p.seed, groups, s, all, even);
      sums.all += all;
      sums.all_count += static_cast<std::int64_t>(4 * groups);
      if (row % 2 == 0) {
        sums.selected += even;
        sums.selected_count += static_cast<std::int64_t>(2 * groups);
      }
    }
  };
}

}  // namespace

Sums run_fused(const Problem& p) { return for_each_chunk(p, fused_chunk(p)); }

std::vector<Sums> run_fused_chunks(const Problem& p, ChunkRange range) {
  return for_each_chunk(p, range, fused_chunk(p));
}

Sums run_materialized(const Problem& p, double* array, MaterializedTimes& times) {
  const auto groups = static_cast<std::size_t>(p.chunk / 4);
  auto start = std::chrono::steady_clock::now();
  // Pass 1: generate every chunk into the array (row-major, as one N x N array), summing all points
  // on the way.
  Sums generated = for_each_chunk(p, [&](std::int64_t row0, std::int64_t col0, Sums& sums) {
    Scratch s(groups);
    for (std::int64_t row = row0; row < row0 + p.chunk; ++row) {
      generate_groups(counter_of(p, row, col0), p.seed, groups, s);
      double* out = array + row * p.n + col0;
      for (std::size_t g = 0; g < groups; ++g) {
        out[4 * g] = s.x[g];
        out[4 * g + 1] = s.x[groups + g];
        out[4 * g + 2] = s.x[2 * groups + g];
        out[4 * g + 3] = s.x[3 * groups + g];
      }
      double all = 0;
      for (std::size_t i = 0; i < 4 * groups; ++i) all += s.x[i];
      sums.all += all;
      sums.all_count += static_cast<std::int64_t>(4 * groups);
    }
  });
  times.generate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Pass 2: the selection and mean, reading the held array: memory-bandwidth bound. Eight even rows
  // are read at once: one stream per core cannot keep enough cache-line fills in flight to reach
  // the memory bandwidth (one row at a time reached 55 % of the triad bandwidth, four rows 80 %).
  start = std::chrono::steady_clock::now();
  Sums selected = for_each_chunk(p, [&](std::int64_t row0, std::int64_t col0, Sums& sums) {
    for (std::int64_t row = row0; row < row0 + p.chunk; row += 16) {
      const double* r0 = array + row * p.n + col0;
      const std::int64_t two = 2 * p.n;
      double sum = 0;
      for (std::int64_t j = 0; j < p.chunk; j += 2) {
        sum += ((r0[j] + r0[two + j]) + (r0[2 * two + j] + r0[3 * two + j])) +
               ((r0[4 * two + j] + r0[5 * two + j]) + (r0[6 * two + j] + r0[7 * two + j]));
      }
      sums.selected += sum;
      sums.selected_count += 4 * p.chunk;
    }
  });
  times.reduce_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  generated.selected = selected.selected;
  generated.selected_count = selected.selected_count;
  return generated;
}

}  // namespace perfzero::speedcube
