#pragma once
// A GPU's peak dense matrix-multiply rate per number type, from its properties and a table:
// peak = SMs x max SM clock x (FLOP per clock per SM for the architecture and type). The table's
// figures are NVIDIA's datasheet peaks divided by SMs and clock (gemm_peak.cpp shows the sums), for
// the data-center part of each architecture; consumer parts (GeForce) run fp16/bf16 with fp32
// accumulation at half that rate, so their % of peak reads low.
#include <optional>
#include <string>
#include <string_view>

namespace perfzero::cuda {

enum class GemmType { fp32, tf32, fp16, bf16, fp8 };

std::optional<GemmType> gemm_type_from(std::string_view name);
std::string_view to_string(GemmType type);

// Whether tensor cores of compute capability major.minor take the type: tf32 and bf16 from Ampere
// (8.0), fp8 from Ada (8.9); fp32 and fp16 everywhere this worker runs.
bool gemm_type_supported(int cc_major, int cc_minor, GemmType type);

// Dense FLOP per clock per SM (an FMA counts two); nothing when the architecture lacks the type
// (bf16 and tf32 before Ampere, fp8 before Ada) or is not in the table.
std::optional<double> flops_per_clock_per_sm(int cc_major, int cc_minor, GemmType type);

struct Peak {
  double tflops = 0;
  std::string how;  // "2048 FLOP/clock/SM x 132 SMs x 1980 MHz"
};
std::optional<Peak> gemm_peak(int cc_major, int cc_minor, int sm_count, double sm_clock_mhz, GemmType type);

}  // namespace perfzero::cuda
