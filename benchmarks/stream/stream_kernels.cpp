#include <algorithm>
#include <array>
#include <barrier>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include "common/parallel.hpp"
#include "stream/stream.hpp"

namespace perfzero::stream {

namespace {

constexpr double kScalar = 3.0;
enum Kernel { kCopy, kScale, kAdd, kTriad, kKernels };
constexpr std::array<double, kKernels> kBytesPerElement{16, 16, 24, 24};

// STREAM's check: replay the kernels on scalars and compare every element.
std::string check(const double* a, const double* b, const double* c, std::int64_t n, int repetitions) {
  double ea = 1.0;
  double eb = 2.0;
  double ec = 0.0;
  for (int r = 0; r < repetitions; ++r) {
    ec = ea;
    eb = kScalar * ec;
    ec = ea + eb;
    ea = eb + kScalar * ec;
  }
  double worst = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    worst = std::max({worst, std::fabs(a[i] - ea) / ea, std::fabs(b[i] - eb) / eb, std::fabs(c[i] - ec) / ec});
  }
  if (worst > 1e-13)
    return "arrays differ from STREAM's expected values (relative error " + std::to_string(worst) + ")";
  return "";
}

}  // namespace

Bandwidth run_stream(const Settings& s) {
  const auto n = static_cast<std::size_t>(s.n);
  std::unique_ptr<double[]> a(new double[n]);
  std::unique_ptr<double[]> b(new double[n]);
  std::unique_ptr<double[]> c(new double[n]);
  std::array<double, kKernels> best;
  best.fill(std::numeric_limits<double>::max());
  std::barrier sync(s.threads);
  std::chrono::steady_clock::time_point started;

  bench::run_on_threads(s.threads, [&](int t) {
    // Each thread works on its own slice, the same one every time, and touches it first so the
    // pages live near it.
    const std::size_t per = (n + static_cast<std::size_t>(s.threads) - 1) / static_cast<std::size_t>(s.threads);
    const std::size_t lo = std::min(n, static_cast<std::size_t>(t) * per);
    const std::size_t hi = std::min(n, lo + per);
    double* __restrict pa = a.get();
    double* __restrict pb = b.get();
    double* __restrict pc = c.get();
    for (std::size_t i = lo; i < hi; ++i) {
      pa[i] = 1.0;
      pb[i] = 2.0;
      pc[i] = 0.0;
    }
    for (int r = 0; r < s.repetitions; ++r) {
      for (int k = 0; k < kKernels; ++k) {
        sync.arrive_and_wait();
        if (t == 0) started = std::chrono::steady_clock::now();
        switch (k) {
          case kCopy:
            for (std::size_t i = lo; i < hi; ++i) pc[i] = pa[i];
            break;
          case kScale:
            for (std::size_t i = lo; i < hi; ++i) pb[i] = kScalar * pc[i];
            break;
          case kAdd:
            for (std::size_t i = lo; i < hi; ++i) pc[i] = pa[i] + pb[i];
            break;
          default:
            for (std::size_t i = lo; i < hi; ++i) pa[i] = pb[i] + kScalar * pc[i];
            break;
        }
        sync.arrive_and_wait();
        // The first repetition warms up and is not counted, as in STREAM.
        if (t == 0 && r > 0) {
          const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
          best[static_cast<std::size_t>(k)] = std::min(best[static_cast<std::size_t>(k)], seconds);
        }
      }
    }
  });

  Bandwidth out;
  auto gbs = [&](Kernel k) { return kBytesPerElement[k] * static_cast<double>(n) / best[k] / 1e9; };
  out.copy = gbs(kCopy);
  out.scale = gbs(kScale);
  out.add = gbs(kAdd);
  out.triad = gbs(kTriad);
  out.error = check(a.get(), b.get(), c.get(), s.n, s.repetitions);
  return out;
}

}  // namespace perfzero::stream
