#include "onednn/cpu_peak.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>

namespace perfzero::onednn {

namespace {

std::string cpuinfo_field(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "";
}

// The clock the core actually runs at: a chain of dependent integer adds retires one per cycle, so
// adds per second is the frequency. VMs report the base clock in /proc/cpuinfo while the core boosts
// (the first figures here read 127 % of "peak"). Best of five, after a warm-up that lets it boost.
double measured_ghz() {
#if defined(__x86_64__)
  auto adds_per_second = [](std::uint64_t blocks) {
    std::uint64_t x = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t i = 0; i < blocks; ++i) {
      asm volatile(".rept 100\n\tadd $1, %0\n\t.endr" : "+r"(x));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return static_cast<double>(blocks) * 100.0 / seconds;
  };
  adds_per_second(2'000'000);
  double best = 0;
  for (int i = 0; i < 5; ++i) best = std::max(best, adds_per_second(500'000));
  return best / 1e9;
#else
  return 0;
#endif
}

}  // namespace

Peak theoretical_peak(int threads, const std::string& dtype, const std::string& isa) {
  Peak p;
  p.threads = threads;
  std::ifstream max_freq("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  double khz = 0;
  const double measured = measured_ghz();
  if (measured > 0) {
    p.ghz = measured;
    p.ghz_source = "measured: 1-cycle dependent adds on one core";
  } else if (max_freq >> khz && khz > 0) {
    p.ghz = khz / 1e6;
    p.ghz_source = "cpuinfo_max_freq";
  } else {
    try {
      p.ghz = std::stod(cpuinfo_field("cpu MHz")) / 1000.0;
      p.ghz_source = "cpu MHz in /proc/cpuinfo (current clock; VMs hide the maximum)";
    } catch (const std::exception&) {
      p.ghz_source = "unknown";
    }
  }
  const bool amd = cpuinfo_field("vendor_id") == "AuthenticAMD";
  const bool avx512 = isa.find("avx512") != std::string::npos || isa.find("amx") != std::string::npos;
  const bool avx2 = isa.find("avx2") != std::string::npos;
  // Two FMA pipes per core on the server cores clouds sell; AMD's Zen 4 runs AVX-512 on 256-bit pipes.
  double fp32 = 8;  // SSE4.1: 2 x 4 lanes, no FMA
  std::string rule = "SSE: 2 x 4-lane ops per cycle";
  if (avx512) {
    fp32 = amd ? 32 : 64;
    rule = amd ? "AVX-512 on Zen 4: 2 x 256-bit FMA = 32 fp32 FLOP/cycle"
               : "AVX-512: 2 x 512-bit FMA = 64 fp32 FLOP/cycle (1-FMA parts reach half)";
  } else if (avx2) {
    fp32 = 32;
    rule = "AVX2: 2 x 256-bit FMA = 32 fp32 FLOP/cycle";
  }
  p.flops_per_cycle = fp32;
  if (dtype == "bf16") {
    if (isa.find("amx") != std::string::npos) {
      p.flops_per_cycle = 1024;
      rule = "AMX: 1024 bf16 FLOP/cycle per core";
    } else if (isa.find("bf16") != std::string::npos) {
      p.flops_per_cycle = 2 * fp32;
      rule += "; bf16 dot products (vdpbf16ps) double it";
    }
  }
  p.flops_per_cycle_rule = rule;
  p.gflops = threads * p.ghz * p.flops_per_cycle;
  return p;
}

}  // namespace perfzero::onednn
