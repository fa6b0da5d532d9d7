#pragma once
// The product brief's MNIST CNN (Conv32-Conv64-MaxPool-Dropout-Dense128-Dropout-Dense10, 28x28x1
// input) trained on one GPU: cuDNN convolutions, pooling and ReLUs, cuBLAS dense layers, and own
// kernels (mnist_cnn_kernels.cu) for bias, dropout, the softmax cross-entropy loss and Keras'
// Adadelta. The network, its initial weights and its dropout masks are the OpenCL family's
// (benchmarks/opencl/mnist_trainer.cpp), so the two backends compute the same losses up to rounding.
#include <cstdint>
#include <memory>
#include <string>

#include <cuda_runtime.h>

namespace perfzero::cuda {

class CnnTrainer {
 public:
  // Every call of the trainer runs on `stream` (cuDNN's and cuBLAS's work too). `tf32`: let cuDNN
  // and cuBLAS use TF32 tensor cores for the fp32 convolutions and matrix products; false keeps them
  // to fp32 arithmetic, as the CPU and OpenCL backends compute. `find_algorithms`: pick each
  // convolution's algorithm by timing them all once (cudnnFind*) rather than by cuDNN's heuristics
  // (cudnnGet*Algorithm_v7). Allocates everything up front, one workspace for all convolutions.
  CnnTrainer(int batch, std::uint32_t seed, bool tf32, bool find_algorithms, cudaStream_t stream);
  ~CnnTrainer();
  CnnTrainer(const CnnTrainer&) = delete;
  CnnTrainer& operator=(const CnnTrainer&) = delete;

  // Enqueues one training step on the stream: forward, loss, backward, Adadelta update, and the
  // copy of the batch's per-example losses (from before the update) to pinned host memory.
  // `images`: batch x 1 x 28 x 28 floats, `labels`: batch ints in 0..9, both on the device.
  void step(const float* images, const int* labels);
  // The mean loss of the latest step; call only once the stream has passed that step's copy.
  double loss() const;

  std::int64_t parameters() const;
  // How and which convolution algorithms were chosen, e.g. "cuDNN heuristics (cudnnGet*_v7): conv1
  // forward IMPLICIT_GEMM (FMA math), ...".
  std::string algorithms() const;
  std::int64_t workspace_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace perfzero::cuda
