// opencl.Gemm.*: C = A B through CLBlast (fp32 SGEMM, fp16 HGEMM), row-major, checked against an
// integer reference. Beside onednn.Matmul on the same CPU it answers "which library for GEMM here?".
#include <clblast.h>
#include <clblast_half.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "opencl/device_runner.hpp"

namespace perfzero::opencl {

namespace {

const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed GEMMs after the warm-ups (the first compiles CLBlast's kernels)",
    .repetitions = 5,
    .warmups = 1};

// Small integers (-2..2), the same entries as onednn.Matmul: products and sums are exact in fp32,
// and in fp16 while every partial sum stays within 2048.
float entry(std::int64_t i, std::int64_t j, std::uint32_t salt) {
  std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761U ^ static_cast<std::uint32_t>(j) * 2246822519U ^ salt;
  h ^= h >> 15;
  h *= 2246822519U;
  h ^= h >> 13;
  return static_cast<float>(static_cast<int>(h % 5) - 2);
}

template <typename T>
T to_type(float v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    return FloatToHalf(v);
  }
}

template <typename T>
float from_type(T v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    return HalfToFloat(v);
  }
}

template <typename T>
std::vector<T> matrix(std::int64_t rows, std::int64_t cols, std::uint32_t salt) {
  std::vector<T> v(static_cast<std::size_t>(rows * cols));
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) v[static_cast<std::size_t>(i * cols + j)] = to_type<T>(entry(i, j, salt));
  }
  return v;
}

// 64 entries spread over C against the integer reference. fp32 must match exactly; fp16 within the
// worst-case rounding of a k-term half-precision sum (k * 2^-11 * sum |a b|) once sums pass 2048.
template <typename T>
std::string check_entries(const std::vector<T>& c, std::int64_t m, std::int64_t n, std::int64_t k) {
  for (int s = 0; s < 64; ++s) {
    const std::int64_t i = (static_cast<std::int64_t>(s) * 7919) % m;
    const std::int64_t j = (static_cast<std::int64_t>(s) * 104729) % n;
    double expected = 0;
    double magnitude = 0;
    for (std::int64_t l = 0; l < k; ++l) {
      const double p = static_cast<double>(entry(i, l, 1)) * static_cast<double>(entry(l, j, 2));
      expected += p;
      magnitude += std::fabs(p);
    }
    const double got = from_type(c[static_cast<std::size_t>(i * n + j)]);
    const double tolerance =
        std::is_same_v<T, float> || magnitude <= 2048 ? 0.0 : static_cast<double>(k) * std::ldexp(1.0, -11) * magnitude;
    if (std::fabs(got - expected) > tolerance) {
      return fmt::format("C[{}][{}] = {}, expected {} (tolerance {})", i, j, got, expected, tolerance);
    }
  }
  return "";
}

template <typename T>
void gemm(Context& ctx, Session& s, const char* dtype) {
  const auto m = ctx.int_param("m");
  const auto n = ctx.int_param("n");
  const auto k = ctx.int_param("k");
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  if (m < 1 || n < 1 || k < 1 || k > (1 << 20)) return ctx.fail("m, n, k must be positive (k at most 2^20)");
  if (std::is_same_v<T, half> && !s.device().fp16) {
    // device_runner.cpp puts the device's label before every skip reason.
    return ctx.skip("no half precision (cl_khr_fp16), which CLBlast's HGEMM needs");
  }
  const std::vector<T> a = matrix<T>(m, k, 1);
  const std::vector<T> b = matrix<T>(k, n, 2);
  std::vector<T> c(static_cast<std::size_t>(m * n));
  const Buffer da = s.buffer(a.size() * sizeof(T), CL_MEM_READ_ONLY);
  const Buffer db = s.buffer(b.size() * sizeof(T), CL_MEM_READ_ONLY);
  const Buffer dc = s.buffer(c.size() * sizeof(T));
  s.write(da, a.data(), a.size() * sizeof(T));
  s.write(db, b.data(), b.size() * sizeof(T));
  const auto run = [&] {
    const auto status = clblast::Gemm<T>(
        clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, static_cast<std::size_t>(m),
        static_cast<std::size_t>(n), static_cast<std::size_t>(k), to_type<T>(1.0F), da.get(), 0,
        static_cast<std::size_t>(k), db.get(), 0, static_cast<std::size_t>(n), to_type<T>(0.0F), dc.get(), 0,
        static_cast<std::size_t>(n), s.queue_handle().address(), nullptr);
    if (status != clblast::StatusCode::kSuccess) {
      throw std::runtime_error(fmt::format("clblast::Gemm<{}> failed with CLBlast status {} ({})", dtype,
                                           static_cast<int>(status), error_name(static_cast<cl_int>(status))));
    }
    s.finish();
  };
  const RepetitionSeries seconds = measure(ctx, options.named("gemm"), run);
  s.read(dc, c.data(), c.size() * sizeof(T));
  if (auto wrong = check_entries(c, m, n, k); !wrong.empty()) return ctx.fail(wrong);
  const double flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  ctx.report("gflops", flops / seconds.median() / 1e9, "GFLOP/s", Direction::higher_is_better);
  ctx.report("milliseconds", seconds.median() * 1e3, "ms", Direction::lower_is_better);
  ctx.set_extra("dtype", std::string(dtype));
  ctx.set_extra("m", m);
  ctx.set_extra("n", n);
  ctx.set_extra("k", k);
  ctx.set_framework({"clblast",
                     fmt::format("{}.{}.{}", CLBLAST_VERSION_MAJOR, CLBLAST_VERSION_MINOR, CLBLAST_VERSION_PATCH),
                     s.device().platform_name + " " + s.device().driver_version});
}

std::vector<ParamSpec> gemm_params() {
  std::vector<ParamSpec> own{{"m", ParamType::integer, std::int64_t{1024}, "rows of A and C"},
                             {"n", ParamType::integer, std::int64_t{1024}, "columns of B and C"},
                             {"k", ParamType::integer, std::int64_t{1024}, "columns of A, rows of B"}};
  for (auto& spec : params::measure_specs(kMeasure)) own.push_back(std::move(spec));
  return with_device_params(std::move(own));
}

const Registration kMethods[] = {
    Registration{MethodInfo{
        "opencl", "Gemm", "benchmark_gemm_fp32", "CLBlast SGEMM (row-major), checked exactly", gemm_params(),
        [](Context& c) { run_on_selected_devices(c, [](Context& ctx, Session& s) { gemm<float>(ctx, s, "fp32"); }); }}},
    Registration{MethodInfo{
        "opencl", "Gemm", "benchmark_gemm_fp16", "CLBlast HGEMM (row-major); skipped on devices without cl_khr_fp16",
        gemm_params(),
        [](Context& c) { run_on_selected_devices(c, [](Context& ctx, Session& s) { gemm<half>(ctx, s, "fp16"); }); }}},
};

}  // namespace

}  // namespace perfzero::opencl
