#pragma once
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11): a
// counter-based generator. The numbers for a counter depend on nothing else, so any chunking and any
// thread count produce the same array, and every point of the cube can be generated independently.
#include <cstdint>

namespace perfzero::speedcube {

struct PhiloxWords {
  std::uint32_t w0, w1, w2, w3;
};

// The 32-bit words live in 64-bit variables so that, vectorized, each 32x32->64 multiply is one
// vpmuludq on 64-bit lanes; with 32-bit variables GCC widened and repacked lanes every round and the
// generator ran 1.8x slower (same output; tests/unit/speedcube_test.cpp checks known values).
inline PhiloxWords philox4x32_10(std::uint64_t counter, std::uint64_t key) {
  constexpr std::uint64_t kM0 = 0xD2511F53U;
  constexpr std::uint64_t kM1 = 0xCD9E8D57U;
  constexpr std::uint64_t kW0 = 0x9E3779B9U;
  constexpr std::uint64_t kW1 = 0xBB67AE85U;
  constexpr std::uint64_t kLow = 0xFFFFFFFFU;
  std::uint64_t c0 = counter & kLow;
  std::uint64_t c1 = counter >> 32;
  std::uint64_t c2 = 0;
  std::uint64_t c3 = 0;
  std::uint64_t k0 = key & kLow;
  std::uint64_t k1 = key >> 32;
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = kM0 * c0;
    const std::uint64_t p1 = kM1 * c2;
    c0 = (p1 >> 32) ^ c1 ^ k0;
    c1 = p1 & kLow;
    c2 = (p0 >> 32) ^ c3 ^ k1;
    c3 = p0 & kLow;
    k0 = (k0 + kW0) & kLow;
    k1 = (k1 + kW1) & kLow;
  }
  return {static_cast<std::uint32_t>(c0), static_cast<std::uint32_t>(c1), static_cast<std::uint32_t>(c2),
          static_cast<std::uint32_t>(c3)};
}

}  // namespace perfzero::speedcube
