#pragma once
// The product brief's MNIST CNN (Conv32-Conv64-MaxPool-Dropout-Dense128-Dropout-Dense10, 28x28x1
// input) trained on an OpenCL device with our own kernels (mnist_kernels.cpp): forward, backward
// and Keras' Adadelta update, one training step per call.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "opencl/session.hpp"

namespace perfzero::opencl {

class MnistTrainer {
 public:
  MnistTrainer(Session& session, int batch, std::uint32_t seed);

  // Trains one step on `images` (batch x 28 x 28 floats) and `labels` (batch ints) already on the
  // device; returns the batch's mean cross-entropy loss before the update.
  double step(const Buffer& images, const Buffer& labels);

  std::int64_t parameters() const;

 private:
  struct Parameter {
    Buffer value, grad, accum_grad, accum_update;
    std::size_t size = 0;
  };
  Parameter& parameter(const std::string& name, std::size_t size, std::size_t fan_in, std::uint32_t& seed);
  Buffer floats(std::size_t count) const { return session_.buffer(count * sizeof(float)); }
  template <typename... Args>
  void run(const char* kernel, std::size_t global, const Args&... args) {
    const Kernel& k = kernels_.at(kernel);
    set_args(k, args...);
    session_.launch(k, global);
  }
  void forward(const Buffer& images, const Buffer& labels);
  void backward(const Buffer& images);

  Session& session_;
  int batch_;
  std::uint32_t step_ = 0;
  Program program_;
  std::map<std::string, Kernel> kernels_;
  std::map<std::string, Parameter> params_;
  Buffer a1_, a2_, pooled_, where_, d1_, h_, d2_, logits_, d_logits_, loss_;
  Buffer g_d2_, g_h_, g_d1_, g_pooled_, g_a2_, g_a1_;
};

}  // namespace perfzero::opencl
