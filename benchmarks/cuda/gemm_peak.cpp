#include "cuda/gemm_peak.hpp"

#include <array>

#include <fmt/format.h>

namespace perfzero::cuda {

namespace {

struct Row {
  int major;
  int minor;                           // -1: any minor version of the major
  double fp32, tf32, fp16, bf16, fp8;  // 0: the type is not there
};

// From NVIDIA's datasheets (dense, fp32 accumulation) / (SMs x the clock the datasheet assumes):
//   T4 (7.5): 8.1 fp32, 65 fp16 TFLOP/s / (40 SMs x 1590 MHz) = 128, 1024
//   A100 (8.0): 19.5 fp32, 156 tf32, 312 fp16/bf16 / (108 x 1410) = 128, 1024, 2048
//   A10 (8.6; 8.7 alike): 31.2 fp32, 62.5 tf32, 125 fp16/bf16 / (72 x 1695) = 256, 512, 1024
//   L40S (8.9): 91.6 fp32, 183 tf32, 362 fp16/bf16, 733 fp8 / (142 x 2520) = 256, 512, 1024, 2048
//   H100 SXM (9.0): 67 fp32 / (132 x 1980) = 256; 495 tf32, 989 fp16/bf16, 1979 fp8 / (132 x 1830)
//   = 2048, 4096, 8192
// gemm_peak() multiplies by the device's own maximum SM clock, which can be above the datasheet's
// (H100: 1980 vs 1830 MHz): the % of peak is then on the safe side.
constexpr std::array kTable{
    Row{7, 5, 128, 0, 1024, 0, 0},      Row{8, 0, 128, 1024, 2048, 2048, 0},   Row{8, 6, 256, 512, 1024, 1024, 0},
    Row{8, 7, 256, 512, 1024, 1024, 0}, Row{8, 9, 256, 512, 1024, 1024, 2048}, Row{9, 0, 256, 2048, 4096, 4096, 8192},
};

}  // namespace

std::optional<GemmType> gemm_type_from(std::string_view name) {
  for (GemmType t : {GemmType::fp32, GemmType::tf32, GemmType::fp16, GemmType::bf16, GemmType::fp8}) {
    if (to_string(t) == name) return t;
  }
  return std::nullopt;
}

std::string_view to_string(GemmType type) {
  switch (type) {
    case GemmType::fp32:
      return "fp32";
    case GemmType::tf32:
      return "tf32";
    case GemmType::fp16:
      return "fp16";
    case GemmType::bf16:
      return "bf16";
    case GemmType::fp8:
      return "fp8";
  }
  return "?";
}

bool gemm_type_supported(int cc_major, int cc_minor, GemmType type) {
  const int cc = 10 * cc_major + cc_minor;
  switch (type) {
    case GemmType::fp32:
    case GemmType::fp16:
      return true;
    case GemmType::tf32:
    case GemmType::bf16:
      return cc >= 80;
    case GemmType::fp8:
      return cc >= 89;
  }
  return false;
}

std::optional<double> flops_per_clock_per_sm(int cc_major, int cc_minor, GemmType type) {
  for (const Row& r : kTable) {
    if (r.major != cc_major || (r.minor != -1 && r.minor != cc_minor)) continue;
    const double value = type == GemmType::fp32   ? r.fp32
                         : type == GemmType::tf32 ? r.tf32
                         : type == GemmType::fp16 ? r.fp16
                         : type == GemmType::bf16 ? r.bf16
                                                  : r.fp8;
    if (value > 0) return value;
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Peak> gemm_peak(int cc_major, int cc_minor, int sm_count, double sm_clock_mhz, GemmType type) {
  const auto per_sm = flops_per_clock_per_sm(cc_major, cc_minor, type);
  if (!per_sm || sm_count <= 0 || !(sm_clock_mhz > 0)) return std::nullopt;
  return Peak{*per_sm * sm_count * sm_clock_mhz * 1e6 / 1e12,
              fmt::format("{} FLOP/clock/SM x {} SMs x {} MHz", *per_sm, sm_count, sm_clock_mhz)};
}

}  // namespace perfzero::cuda
