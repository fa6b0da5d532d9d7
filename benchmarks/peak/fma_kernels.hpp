#pragma once
// The FMA-throughput kernels, one translation unit per instruction set, each compiled with its own
// -m flags. This header is included by those units, so it declares plain functions and a POD only:
// an inline function defined here would be compiled with AVX-512 in one unit and could be the copy
// the linker keeps for the whole program, which then faults on a CPU without AVX-512.
#include <cstdint>

namespace perfzero::peak::detail {

// What a kernel did: the FLOPs it executed and a value that depends on every accumulator, so the
// compiler cannot drop the work.
struct KernelRun {
  double flops;
  double sink;
};

// Each runs `iterations` rounds of independent multiply-adds (enough accumulators to cover the FMA
// latency on two to four pipes) and returns what it did. Call one only where the CPU has its ISA.
KernelRun sse2_fp32(std::uint64_t iterations);
KernelRun sse2_fp64(std::uint64_t iterations);
KernelRun avx2_fp32(std::uint64_t iterations);
KernelRun avx2_fp64(std::uint64_t iterations);
KernelRun avx512_fp32(std::uint64_t iterations);
KernelRun avx512_fp64(std::uint64_t iterations);
KernelRun avx512_bf16(std::uint64_t iterations);
KernelRun neon_fp32(std::uint64_t iterations);
KernelRun neon_fp64(std::uint64_t iterations);
KernelRun neon_bf16(std::uint64_t iterations);
KernelRun sve_fp32(std::uint64_t iterations);
KernelRun sve_fp64(std::uint64_t iterations);

}  // namespace perfzero::peak::detail
