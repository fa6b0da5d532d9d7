#pragma once
// What a CnnTrainer holds (mnist_cnn_trainer.hpp): the network's parameters in their arenas, every
// activation and gradient buffer, and the cuDNN and cuBLAS handles and descriptors. Shared by the
// two files that define its members: mnist_cnn_trainer_setup.cpp builds it (initial weights,
// descriptors, the convolution algorithms), mnist_cnn_trainer.cpp runs its training step.
#include <cublas_v2.h>
#include <cudnn.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda/cudnn_handles.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/mnist_cnn_trainer.hpp"

namespace perfzero::cuda {

struct CnnTrainer::Impl {
  static constexpr int kPooled = 64 * 12 * 12;  // the flattened input of Dense128

  // The parameters, in the OpenCL trainer's order (their initial values are drawn in this order from
  // one stream), each in one arena per role (values, gradients, Adadelta's two accumulators) so one
  // Adadelta launch updates them all. Each starts on a 256-byte boundary; the padding between them
  // stays zero (zero gradient, zero update).
  enum Param : int { kW1, kB1, kW2, kB2, kW3, kB3, kW4, kB4, kParamCount };

  struct ParamShape {
    std::size_t size;
    std::size_t fan_in;  // 0 for a bias (zeros, as Keras initializes them)
  };

  static constexpr std::array<ParamShape, kParamCount> kShapes{{{std::size_t{32} * 9, 9},
                                                                {32, 0},
                                                                {std::size_t{64} * 32 * 9, std::size_t{32} * 9},
                                                                {64, 0},
                                                                {std::size_t{128} * kPooled, kPooled},
                                                                {128, 0},
                                                                {std::size_t{10} * 128, 128},
                                                                {10, 0}}};

  struct Layout {
    std::array<std::size_t, kParamCount> offset{};
    std::size_t total = 0;
  };
  static Layout make_layout();

  // The convolution algorithms chosen so far, as algorithms() names them, and the largest workspace
  // they need.
  struct AlgorithmChoice {
    std::vector<std::string> chosen;
    std::size_t workspace_bytes = 0;
    void note(const char* what, const char* algo, cudnnMathType_t m, std::size_t bytes);
  };

  Impl(int batch_size, std::uint32_t seed, bool use_tf32, bool find, cudaStream_t work_stream);

  float* value(Param p) const { return values.get() + layout.offset[static_cast<std::size_t>(p)]; }
  float* grad(Param p) const { return grads.get() + layout.offset[static_cast<std::size_t>(p)]; }
  // Setting up (mnist_cnn_trainer_setup.cpp).
  void initialize_parameters(std::uint32_t seed);
  void describe_layers();
  void choose_algorithms(bool find);
  void choose_forward(bool find, AlgorithmChoice& choice);
  void choose_backward_filter(bool find, AlgorithmChoice& choice);
  void choose_backward_data(bool find, AlgorithmChoice& choice);
  // One step (mnist_cnn_trainer.cpp); drop1 and drop2 seed the two dropout masks.
  void step(const float* images, const int* labels);
  void forward(const float* images, const int* labels, std::uint32_t drop1, std::uint32_t drop2);
  void backward(const float* images, std::uint32_t drop1, std::uint32_t drop2);

  const int batch;
  const std::size_t b;  // batch, as a size
  const bool tf32;
  cudaStream_t stream;
  std::uint32_t steps = 0;

  const Layout layout = make_layout();
  DeviceBuffer<float> values{layout.total};
  DeviceBuffer<float> grads{layout.total};
  DeviceBuffer<float> accum_grad{layout.total};
  DeviceBuffer<float> accum_update{layout.total};

  // Forward: conv outputs z (before ReLU) and a (after), pooled, dropped-out d, dense h.
  DeviceBuffer<float> z1{b * 32 * 26 * 26}, a1{b * 32 * 26 * 26};
  DeviceBuffer<float> z2{b * 64 * 24 * 24}, a2{b * 64 * 24 * 24};
  DeviceBuffer<float> pooled{b * kPooled}, d1{b * kPooled};
  DeviceBuffer<float> h_pre{b * 128}, h{b * 128}, d2{b * 128};
  DeviceBuffer<float> logits{b * 10}, d_logits{b * 10}, losses{b};
  // Backward: g_x is the gradient of the loss with respect to x.
  DeviceBuffer<float> g_d2{b * 128}, g_h{b * 128}, g_h_pre{b * 128};
  DeviceBuffer<float> g_d1{b * kPooled}, g_pooled{b * kPooled};
  DeviceBuffer<float> g_a2{b * 64 * 24 * 24}, g_z2{b * 64 * 24 * 24};
  DeviceBuffer<float> g_a1{b * 32 * 26 * 26}, g_z1{b * 32 * 26 * 26};
  PinnedBuffer<float> host_losses{b};

  CudnnHandle cudnn;
  CublasHandle cublas;
  TensorDesc x_desc, c1_desc, c2_desc, pooled_desc, dense_desc;
  FilterDesc w1_desc, w2_desc;
  ConvDesc conv1, conv2;
  PoolDesc pool;
  ActivationDesc relu;

  cudnnConvolutionFwdAlgo_t conv1_forward{}, conv2_forward{};
  cudnnConvolutionBwdFilterAlgo_t conv1_backward_filter{}, conv2_backward_filter{};
  cudnnConvolutionBwdDataAlgo_t conv2_backward_data{};
  std::string algorithms;
  std::unique_ptr<DeviceBuffer<std::uint8_t>> workspace;
};

}  // namespace perfzero::cuda
