#pragma once
// Owners of cuDNN's and cuBLAS's handles and descriptors for host code (mnist_cnn_trainer_impl.hpp):
// each is destroyed with its owner, also when a constructor throws half way.
#include <cublas_v2.h>
#include <cudnn.h>

#include "common/owned_handle.hpp"
#include "cuda/cuda_check.hpp"

namespace perfzero::cuda {

// A cuDNN object: made through address() by its cudnnCreate* call, destroyed by `Destroy`.
template <typename T, cudnnStatus_t (*Destroy)(T)>
using CudnnObject = bench::OwnedHandle<T, Destroy>;

using CudnnHandle = CudnnObject<cudnnHandle_t, cudnnDestroy>;
using TensorDesc = CudnnObject<cudnnTensorDescriptor_t, cudnnDestroyTensorDescriptor>;
using FilterDesc = CudnnObject<cudnnFilterDescriptor_t, cudnnDestroyFilterDescriptor>;
using ConvDesc = CudnnObject<cudnnConvolutionDescriptor_t, cudnnDestroyConvolutionDescriptor>;
using PoolDesc = CudnnObject<cudnnPoolingDescriptor_t, cudnnDestroyPoolingDescriptor>;
using ActivationDesc = CudnnObject<cudnnActivationDescriptor_t, cudnnDestroyActivationDescriptor>;

class CublasHandle {
 public:
  CublasHandle() { PERFZERO_CUBLAS_CALL(cublasCreate(&handle_)); }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace perfzero::cuda
