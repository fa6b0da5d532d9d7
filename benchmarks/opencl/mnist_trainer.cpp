#include "opencl/mnist_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/mnist_synthetic.hpp"
#include "opencl/mnist_kernels.hpp"

namespace perfzero::opencl {

namespace {

constexpr int kPooled = 64 * 12 * 12;  // the flattened input of Dense128

// A linear congruential stream in [0, 1): weights and data the same on every machine.

constexpr const char* kKernelNames[] = {"conv3x3_relu",
                                        "conv3x3_backward_data",
                                        "conv3x3_backward_weights",
                                        "bias_backward",
                                        "maxpool2",
                                        "maxpool2_backward",
                                        "dropout",
                                        "dense",
                                        "dense_backward_data",
                                        "dense_backward_weights",
                                        "relu_backward",
                                        "softmax_cross_entropy",
                                        "adadelta"};

}  // namespace

MnistTrainer::MnistTrainer(Session& session, int batch, std::uint32_t seed)
    : session_(session), batch_(batch), program_(session.build(kMnistKernels)) {
  for (const char* name : kKernelNames) kernels_.emplace(name, session.kernel(program_, name));
  const auto b = static_cast<std::size_t>(batch);
  std::uint32_t s = seed;
  parameter("w1", std::size_t{32} * 9, 9, s);
  parameter("b1", 32, 0, s);
  parameter("w2", std::size_t{64} * 32 * 9, std::size_t{32} * 9, s);
  parameter("b2", 64, 0, s);
  parameter("w3", 128 * static_cast<std::size_t>(kPooled), kPooled, s);
  parameter("b3", 128, 0, s);
  parameter("w4", std::size_t{10} * 128, 128, s);
  parameter("b4", 10, 0, s);
  a1_ = floats(b * 32 * 26 * 26);
  a2_ = floats(b * 64 * 24 * 24);
  pooled_ = floats(b * kPooled);
  where_ = session.buffer(b * kPooled * sizeof(int));
  d1_ = floats(b * kPooled);
  h_ = floats(b * 128);
  d2_ = floats(b * 128);
  logits_ = floats(b * 10);
  d_logits_ = floats(b * 10);
  loss_ = floats(b);
  g_d2_ = floats(b * 128);
  g_h_ = floats(b * 128);
  g_d1_ = floats(b * kPooled);
  g_pooled_ = floats(b * kPooled);
  g_a2_ = floats(b * 64 * 24 * 24);
  g_a1_ = floats(b * 32 * 26 * 26);
}

MnistTrainer::Parameter& MnistTrainer::parameter(const std::string& name, std::size_t size, std::size_t fan_in,
                                                 std::uint32_t& seed) {
  Parameter& p = params_[name];
  p.size = size;
  // He uniform for weights, zeros for biases (fan_in 0), as Keras initializes them.
  const float scale = fan_in == 0 ? 0.0F : std::sqrt(6.0F / static_cast<float>(fan_in));
  std::vector<float> values(size);
  for (float& v : values) v = scale * (2 * bench::uniform01(seed) - 1);
  const std::vector<float> zeros(size, 0.0F);
  p.value = floats(size);
  p.grad = floats(size);
  p.accum_grad = floats(size);
  p.accum_update = floats(size);
  session_.write(p.value, values.data(), size * sizeof(float));
  session_.write(p.accum_grad, zeros.data(), size * sizeof(float));
  session_.write(p.accum_update, zeros.data(), size * sizeof(float));
  return p;
}

std::int64_t MnistTrainer::parameters() const {
  std::size_t total = 0;
  for (const auto& [name, p] : params_) total += p.size;
  return static_cast<std::int64_t>(total);
}

void MnistTrainer::forward(const Buffer& images, const Buffer& labels) {
  const auto b = static_cast<std::size_t>(batch_);
  const cl_uint drop1 = 2 * step_ + 1;
  const cl_uint drop2 = 2 * step_ + 2;
  run("conv3x3_relu", b * 32 * 26 * 26, images, params_["w1"].value, params_["b1"].value, a1_, 1, 28, 28, 32);
  run("conv3x3_relu", b * 64 * 24 * 24, a1_, params_["w2"].value, params_["b2"].value, a2_, 32, 26, 26, 64);
  run("maxpool2", b * kPooled, a2_, pooled_, where_, 24, 24);
  run("dropout", b * kPooled, pooled_, d1_, 0.25F, drop1);
  run("dense", b * 128, d1_, params_["w3"].value, params_["b3"].value, h_, kPooled, 128, 1);
  run("dropout", b * 128, h_, d2_, 0.5F, drop2);
  run("dense", b * 10, d2_, params_["w4"].value, params_["b4"].value, logits_, 128, 10, 0);
  run("softmax_cross_entropy", b, logits_, labels, d_logits_, loss_, batch_);
}

void MnistTrainer::backward(const Buffer& images) {
  const auto b = static_cast<std::size_t>(batch_);
  const cl_uint drop1 = 2 * step_ + 1;
  const cl_uint drop2 = 2 * step_ + 2;
  run("dense_backward_weights", std::size_t{10} * 128, d2_, d_logits_, params_["w4"].grad, params_["b4"].grad, batch_,
      128, 10);
  run("dense_backward_data", b * 128, d_logits_, params_["w4"].value, g_d2_, 128, 10);
  run("dropout", b * 128, g_d2_, g_h_, 0.5F, drop2);  // the same mask as forward: same seed
  run("relu_backward", b * 128, g_h_, h_);
  run("dense_backward_weights", 128 * static_cast<std::size_t>(kPooled), d1_, g_h_, params_["w3"].grad,
      params_["b3"].grad, batch_, kPooled, 128);
  run("dense_backward_data", b * kPooled, g_h_, params_["w3"].value, g_d1_, kPooled, 128);
  run("dropout", b * kPooled, g_d1_, g_pooled_, 0.25F, drop1);
  run("maxpool2_backward", b * 64 * 24 * 24, g_pooled_, where_, a2_, g_a2_, 24, 24);
  run("conv3x3_backward_weights", std::size_t{64} * 32 * 9, a1_, g_a2_, params_["w2"].grad, batch_, 32, 26, 26, 64);
  run("bias_backward", 64, g_a2_, params_["b2"].grad, batch_, 64, 24 * 24);
  run("conv3x3_backward_data", b * 32 * 26 * 26, g_a2_, params_["w2"].value, a1_, g_a1_, 32, 26, 26, 64);
  run("conv3x3_backward_weights", std::size_t{32} * 9, images, g_a1_, params_["w1"].grad, batch_, 1, 28, 28, 32);
  run("bias_backward", 32, g_a1_, params_["b1"].grad, batch_, 32, 26 * 26);
  for (auto& [name, p] : params_) run("adadelta", p.size, p.value, p.grad, p.accum_grad, p.accum_update);
}

double MnistTrainer::step(const Buffer& images, const Buffer& labels) {
  ++step_;
  forward(images, labels);
  backward(images);
  std::vector<float> losses(static_cast<std::size_t>(batch_));
  session_.read(loss_, losses.data(), losses.size() * sizeof(float));  // blocking: waits for the step
  return std::accumulate(losses.begin(), losses.end(), 0.0) / static_cast<double>(batch_);
}

}  // namespace perfzero::opencl
