#include <algorithm>
#include <array>
#include <barrier>
#include <cmath>
#include <exception>
#include <memory>

#include "common/parallel.hpp"
#include "stream/stream.hpp"

namespace perfzero::stream {

namespace {

constexpr double kScalar = 3.0;
enum Kernel { kCopy, kScale, kAdd, kTriad, kKernels, kStop = kKernels };
constexpr std::array<double, kKernels> kBytesPerElement{16, 16, 24, 24};
constexpr std::array<const char*, kKernels> kNames{"copy", "scale", "add", "triad"};

// STREAM's check: replay the kernels on scalars, as often and in the order they ran, and compare
// every element.
std::string check(const double* a, const double* b, const double* c, std::int64_t n,
                  const std::array<std::int64_t, kKernels>& runs) {
  double ea = 1.0;
  double eb = 2.0;
  double ec = 0.0;
  for (std::int64_t r = 0; r < runs[kCopy]; ++r) ec = ea;
  for (std::int64_t r = 0; r < runs[kScale]; ++r) eb = kScalar * ec;
  for (std::int64_t r = 0; r < runs[kAdd]; ++r) ec = ea + eb;
  for (std::int64_t r = 0; r < runs[kTriad]; ++r) ea = eb + kScalar * ec;
  double worst = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    worst = std::max({worst, std::fabs(a[i] - ea) / ea, std::fabs(b[i] - eb) / eb, std::fabs(c[i] - ec) / ec});
  }
  if (worst > 1e-13)
    return "arrays differ from STREAM's expected values (relative error " + std::to_string(worst) + ")";
  return "";
}

void run_kernel(int k, double* __restrict pa, double* __restrict pb, double* __restrict pc, std::size_t lo,
                std::size_t hi) {
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
}

}  // namespace

Bandwidth run_stream(Context& ctx, const Settings& s, const MeasureOptions& options) {
  const auto n = static_cast<std::size_t>(s.n);
  std::unique_ptr<double[]> a(new double[n]);
  std::unique_ptr<double[]> b(new double[n]);
  std::unique_ptr<double[]> c(new double[n]);
  std::array<double, kKernels> best{};
  std::array<std::int64_t, kKernels> runs{};
  std::barrier sync(s.threads);
  int command = kStop;  // written by thread 0 before a barrier, read by the others after it
  std::exception_ptr failure;

  bench::run_on_threads(s.threads, [&](int t) {
    // Each thread works on its own slice, the same one every time, and touches it first so the
    // pages live near it.
    const std::size_t per = (n + static_cast<std::size_t>(s.threads) - 1) / static_cast<std::size_t>(s.threads);
    const std::size_t lo = std::min(n, static_cast<std::size_t>(t) * per);
    const std::size_t hi = std::min(n, lo + per);
    std::fill(a.get() + lo, a.get() + hi, 1.0);
    std::fill(b.get() + lo, b.get() + hi, 2.0);
    std::fill(c.get() + lo, c.get() + hi, 0.0);
    if (t != 0) {
      // Workers run whatever kernel thread 0 names, until it says stop.
      for (sync.arrive_and_wait(); command != kStop; sync.arrive_and_wait()) {
        run_kernel(command, a.get(), b.get(), c.get(), lo, hi);
        sync.arrive_and_wait();
      }
      return;
    }
    try {
      for (int k = 0; k < kKernels; ++k) {
        const RepetitionSeries series = measure(ctx, options.named(kNames[k]), [&] {
          command = k;
          sync.arrive_and_wait();
          run_kernel(k, a.get(), b.get(), c.get(), lo, hi);
          sync.arrive_and_wait();
        });
        best[k] = series.min();
        runs[k] = series.warmups + static_cast<std::int64_t>(series.size());
      }
    } catch (...) {
      failure = std::current_exception();  // rethrown once the workers are released and joined
    }
    command = kStop;
    sync.arrive_and_wait();
  });
  if (failure) std::rethrow_exception(failure);

  Bandwidth out;
  auto gbs = [&](Kernel k) { return kBytesPerElement[k] * static_cast<double>(n) / best[k] / 1e9; };
  out.copy = gbs(kCopy);
  out.scale = gbs(kScale);
  out.add = gbs(kAdd);
  out.triad = gbs(kTriad);
  out.error = check(a.get(), b.get(), c.get(), s.n, runs);
  return out;
}

Bandwidth run_stream(const Settings& s) {
  Context scratch(ParamMap{});
  MeasureOptions options;
  options.warmups = 1;
  options.min_repetitions = s.repetitions;
  options.max_repetitions = s.repetitions;
  return run_stream(scratch, s, options);
}

}  // namespace perfzero::stream
