#pragma once
// One training step of the product brief's MNIST CNN (Conv32-Conv64-MaxPool-Dropout-Dense128-
// Dropout-Dense10, 28x28x1 input), forward, backward and Adadelta update, on oneDNN primitives.
#include <cstdint>
#include <memory>
#include <oneapi/dnnl/dnnl.hpp>
#include <vector>

namespace perfzero::onednn {

class MnistTrainer {
 public:
  MnistTrainer(const dnnl::engine& engine, std::int64_t batch, std::uint32_t seed);
  ~MnistTrainer();
  MnistTrainer(const MnistTrainer&) = delete;
  MnistTrainer& operator=(const MnistTrainer&) = delete;

  // Trains one step on `images` (batch x 28 x 28) with `labels` (0..9); returns the batch's mean
  // cross-entropy loss before the update.
  double step(const std::vector<float>& images, const std::vector<int>& labels);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace perfzero::onednn
