#pragma once
// Checking macros for CUDA, cuBLAS and cuDNN calls: a failing call throws CudaError with the call's
// text and file:line (as nvbench's NVBENCH_CUDA_CALL does); the worker records it as the method's
// failure message.
#include <stdexcept>
#include <string>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

namespace perfzero::cuda {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_call_error(const char* file, int line, const char* call, const std::string& what);
const char* cublas_status_name(cublasStatus_t status);

}  // namespace perfzero::cuda

#define PERFZERO_CUDA_CALL(call)                                                                               \
  do {                                                                                                         \
    const cudaError_t perfzero_cuda_status = (call);                                                           \
    if (perfzero_cuda_status != cudaSuccess) {                                                                 \
      ::perfzero::cuda::throw_call_error(__FILE__, __LINE__, #call, cudaGetErrorString(perfzero_cuda_status)); \
    }                                                                                                          \
  } while (false)

#define PERFZERO_CUBLAS_CALL(call)                                                                      \
  do {                                                                                                  \
    const cublasStatus_t perfzero_cublas_status = (call);                                               \
    if (perfzero_cublas_status != CUBLAS_STATUS_SUCCESS) {                                              \
      ::perfzero::cuda::throw_call_error(__FILE__, __LINE__, #call,                                     \
                                         ::perfzero::cuda::cublas_status_name(perfzero_cublas_status)); \
    }                                                                                                   \
  } while (false)

#define PERFZERO_CUDNN_CALL(call)                                                                                \
  do {                                                                                                           \
    const cudnnStatus_t perfzero_cudnn_status = (call);                                                          \
    if (perfzero_cudnn_status != CUDNN_STATUS_SUCCESS) {                                                         \
      ::perfzero::cuda::throw_call_error(__FILE__, __LINE__, #call, cudnnGetErrorString(perfzero_cudnn_status)); \
    }                                                                                                            \
  } while (false)
