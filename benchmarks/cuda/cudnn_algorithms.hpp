#pragma once
// cuDNN's convolution algorithms as the cnn method reports and chooses them: their names, and the
// first usable one of a ranking (mnist_cnn_trainer_setup.cpp).
#include <cudnn.h>

#include <array>
#include <cstddef>
#include <vector>

#include <fmt/format.h>

#include "cuda/cuda_check.hpp"

namespace perfzero::cuda {

inline const char* name_of(cudnnConvolutionFwdAlgo_t a) {
  static constexpr std::array<const char*, 8> kNames{
      "IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT", "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
  const auto i = static_cast<std::size_t>(a);
  return i < kNames.size() ? kNames[i] : "unknown";
}

inline const char* name_of(cudnnConvolutionBwdDataAlgo_t a) {
  static constexpr std::array<const char*, 6> kNames{"ALGO_0",     "ALGO_1",   "FFT",
                                                     "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
  const auto i = static_cast<std::size_t>(a);
  return i < kNames.size() ? kNames[i] : "unknown";
}

inline const char* name_of(cudnnConvolutionBwdFilterAlgo_t a) {
  static constexpr std::array<const char*, 7> kNames{
      "ALGO_0", "ALGO_1", "FFT", "ALGO_3", "WINOGRAD", "WINOGRAD_NONFUSED", "FFT_TILING"};
  const auto i = static_cast<std::size_t>(a);
  return i < kNames.size() ? kNames[i] : "unknown";
}

inline const char* name_of(cudnnMathType_t m) {
  switch (m) {
    case CUDNN_DEFAULT_MATH:
      return "default math";
    case CUDNN_TENSOR_OP_MATH:
      return "tensor op math";
    case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION:
      return "tensor op math, conversion allowed";
    case CUDNN_FMA_MATH:
      return "FMA math";
  }
  return "unknown math";
}

// The first of cudnnFind*'s or cudnnGet*_v7's results (fastest first, measured or expected) that
// succeeded and, unless TF32 is allowed, does not use tensor cores.
template <typename Perf>
const Perf& first_usable(const std::vector<Perf>& results, int returned, bool tf32, const char* what) {
  for (int i = 0; i < returned; ++i) {
    const Perf& p = results[static_cast<std::size_t>(i)];
    const bool tensor_cores = p.mathType == CUDNN_TENSOR_OP_MATH || p.mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    if (p.status == CUDNN_STATUS_SUCCESS && (tf32 || !tensor_cores)) return p;
  }
  throw CudaError(fmt::format("cuDNN found no usable algorithm for {} ({} tried)", what, returned));
}

}  // namespace perfzero::cuda
