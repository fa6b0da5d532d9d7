#pragma once
// Deterministic synthetic data for the oneDNN methods: weights, inputs and labelled sets that are
// the same on every machine, so runs compare.
#include <cstdint>

namespace perfzero::onednn {

// The next value of a linear congruential stream, in [-1, 1).
inline float noise(std::uint32_t& state) {
  state = state * 1664525U + 1013904223U;
  return static_cast<float>(state >> 8) / 8388608.0F - 1.0F;
}

// The same stream in [0, 1).
inline float uniform01(std::uint32_t& state) { return 0.5F * (noise(state) + 1.0F); }

}  // namespace perfzero::onednn
