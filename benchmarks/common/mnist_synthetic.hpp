#pragma once
// The MNIST CNN training step's data, shared by every backend (oneDNN, OpenCL): a labelled set that
// is the same on every machine and every device, so the steps compare and the loss must fall.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace perfzero::bench {

// A linear congruential stream in [0, 1).
inline float uniform01(std::uint32_t& state) {
  state = state * 1664525U + 1013904223U;
  return static_cast<float>(state >> 8) / 16777216.0F;
}

// `batch` 28 x 28 images on a faint noise floor, each with a bright 6 x 6 block placed by its label
// (0-9), so a small CNN learns the set within a few steps.
inline void synthetic_mnist_batch(std::int64_t batch, std::uint32_t seed, std::vector<float>& images,
                                  std::vector<int>& labels) {
  images.assign(static_cast<std::size_t>(batch) * 784, 0.0F);
  labels.resize(static_cast<std::size_t>(batch));
  std::uint32_t s = seed;
  for (std::int64_t b = 0; b < batch; ++b) {
    const int label = static_cast<int>(uniform01(s) * 10) % 10;
    labels[static_cast<std::size_t>(b)] = label;
    float* img = images.data() + b * 784;
    for (int i = 0; i < 784; ++i) img[i] = 0.2F * uniform01(s);
    const int row = 3 + (label / 5) * 12;
    const int col = 2 + (label % 5) * 5;
    for (int r = row; r < row + 6; ++r) {
      for (int c = col; c < std::min(col + 6, 28); ++c) img[r * 28 + c] += 0.8F;
    }
  }
}

}  // namespace perfzero::bench
