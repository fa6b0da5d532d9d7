// Runs the FMA kernels on pinned threads and assembles a CpuPeak.
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "peak/cpu_peak.hpp"
#include "peak/fma_kernels.hpp"

#if defined(__aarch64__)
#include <sys/auxv.h>
#ifndef HWCAP_SVE
#define HWCAP_SVE (1UL << 22)
#endif
#ifndef HWCAP2_BF16
#define HWCAP2_BF16 (1UL << 14)
#endif
#endif

namespace perfzero::peak {

namespace {

using detail::KernelRun;
using Clock = std::chrono::steady_clock;

struct Kernel {
  const char* isa;
  DataType type;
  KernelRun (*run)(std::uint64_t);
  bool (*supported)();
};

// Run-time dispatch: each kernel runs only where the CPU (and the OS, for AVX state) has its ISA.
std::vector<Kernel> available_kernels() {
  std::vector<Kernel> all;
#if defined(__x86_64__)
  __builtin_cpu_init();
  all = {
      {"avx512", DataType::fp64, detail::avx512_fp64, [] { return __builtin_cpu_supports("avx512f") > 0; }},
      {"avx512", DataType::fp32, detail::avx512_fp32, [] { return __builtin_cpu_supports("avx512f") > 0; }},
      {"avx512_bf16", DataType::bf16, detail::avx512_bf16,
       [] { return __builtin_cpu_supports("avx512f") > 0 && __builtin_cpu_supports("avx512bf16") > 0; }},
      {"avx2_fma", DataType::fp64, detail::avx2_fp64,
       [] { return __builtin_cpu_supports("avx2") > 0 && __builtin_cpu_supports("fma") > 0; }},
      {"avx2_fma", DataType::fp32, detail::avx2_fp32,
       [] { return __builtin_cpu_supports("avx2") > 0 && __builtin_cpu_supports("fma") > 0; }},
      {"sse2", DataType::fp64, detail::sse2_fp64, [] { return true; }},
      {"sse2", DataType::fp32, detail::sse2_fp32, [] { return true; }},
  };
#elif defined(__aarch64__)
  all = {
      {"sve", DataType::fp64, detail::sve_fp64, [] { return (::getauxval(AT_HWCAP) & HWCAP_SVE) != 0; }},
      {"sve", DataType::fp32, detail::sve_fp32, [] { return (::getauxval(AT_HWCAP) & HWCAP_SVE) != 0; }},
      {"neon_bf16", DataType::bf16, detail::neon_bf16, [] { return (::getauxval(AT_HWCAP2) & HWCAP2_BF16) != 0; }},
      {"neon", DataType::fp64, detail::neon_fp64, [] { return true; }},
      {"neon", DataType::fp32, detail::neon_fp32, [] { return true; }},
  };
#endif
  std::vector<Kernel> usable;
  std::copy_if(all.begin(), all.end(), std::back_inserter(usable), [](const Kernel& k) { return k.supported(); });
  return usable;
}

// The first `threads` CPUs of this process's affinity mask: one measuring thread pinned to each.
std::vector<int> measuring_cpus(int threads) {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE && static_cast<int>(cpus.size()) < threads; ++c) {
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
    }
  }
  return cpus;
}

// Runs `body` on one thread per CPU, all released together, each for `seconds` in chunks of
// `chunk` iterations; returns the sum of the threads' rates (units of KernelRun::flops per second).
double run_pinned(const std::vector<int>& cpus, int threads, KernelRun (*body)(std::uint64_t), std::uint64_t chunk,
                  double seconds) {
  std::vector<double> rates(static_cast<std::size_t>(threads), 0.0);
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> workers;
  workers.reserve(rates.size());
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      if (t < static_cast<int>(cpus.size())) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpus[static_cast<std::size_t>(t)], &one);
        ::pthread_setaffinity_np(::pthread_self(), sizeof(one), &one);
      }
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      double flops = 0;
      double sink = 0;
      const auto start = Clock::now();
      const auto deadline = start + std::chrono::duration<double>(seconds);
      auto now = start;
      while (now < deadline) {
        const KernelRun r = body(chunk);
        flops += r.flops;
        sink += r.sink;
        now = Clock::now();
      }
      const volatile double keep = sink;  // the kernels' results stay observable
      (void)keep;
      rates[static_cast<std::size_t>(t)] = flops / std::chrono::duration<double>(now - start).count();
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  go.store(true);
  for (auto& w : workers) w.join();
  double total = 0;
  for (double r : rates) total += r;
  return total;
}

// A chain of dependent integer adds retires one per cycle, so adds per second is the clock: VMs
// report only the base clock in /proc/cpuinfo while the cores boost.
KernelRun dependent_adds(std::uint64_t blocks) {
  std::uint64_t x = 0;
  for (std::uint64_t i = 0; i < blocks; ++i) {
#if defined(__x86_64__)
    asm volatile(".rept 100\n\tadd $1, %0\n\t.endr" : "+r"(x));
#elif defined(__aarch64__)
    asm volatile(".rept 100\n\tadd %0, %0, #1\n\t.endr" : "+r"(x));
#endif
  }
  return {static_cast<double>(blocks) * 100.0, static_cast<double>(x)};
}

// Distinct (package, core) pairs among the CPUs: SMT siblings share one core's FMA pipes.
int physical_cores(const std::vector<int>& cpus) {
  std::set<std::pair<std::string, std::string>> cores;
  for (int c : cpus) {
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(c) + "/topology/";
    std::string package;
    std::string core;
    std::ifstream(dir + "physical_package_id") >> package;
    std::ifstream(dir + "core_id") >> core;
    if (core.empty()) return static_cast<int>(cpus.size());  // no topology (some containers): one per CPU
    cores.emplace(package, core);
  }
  return static_cast<int>(cores.size());
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string cpu_model(const std::string& cpuinfo) {
  std::istringstream in(cpuinfo);
  std::string line;
  std::string implementer;
  std::string part;
  auto value = [&line] { return line.substr(line.find(':') + 2); };
  while (std::getline(in, line)) {
    if (line.find(':') == std::string::npos || line.find(':') + 2 > line.size()) continue;
    if (line.rfind("model name", 0) == 0) return value();
    if (line.rfind("CPU implementer", 0) == 0) implementer = value();
    if (line.rfind("CPU part", 0) == 0) part = value();
  }
  return implementer.empty() ? "unknown" : "implementer " + implementer + ", part " + part;
}

}  // namespace

CpuPeak measure_cpu_peak(int threads, double seconds, int repeats) {
  CpuPeak peak;
  peak.threads = std::max(1, threads);
  const std::vector<int> cpus = measuring_cpus(peak.threads);
  peak.cores = std::min(peak.threads, physical_cores(cpus));
  // The clock is sampled before every timed kernel run and the best sample kept: on a shared host a
  // single sample catches the cores at whatever share of their cycles the others leave.
  auto sample_clock = [&] {
    const double ghz = run_pinned(cpus, peak.threads, dependent_adds, 1000, seconds / 4) / peak.threads / 1e9;
    peak.ghz = std::max(peak.ghz, ghz);
  };
  for (const Kernel& k : available_kernels()) {
    double best = 0;
    for (int r = 0; r < repeats; ++r) {
      sample_clock();
      best = std::max(best, run_pinned(cpus, peak.threads, k.run, 10000, seconds));
    }
    peak.kernels.push_back({k.type, k.isa, best / 1e9});
  }
  peak.ghz_source =
      "measured: 1-cycle dependent integer adds on every thread at once, mean of the threads, best of the samples "
      "taken before each kernel run";
  const std::string cpuinfo = read_text("/proc/cpuinfo");
  peak.cpu_model = cpu_model(cpuinfo);
  peak.vendor = identify_core(cpuinfo);
  std::ostringstream method;
  method << "Measured: an FMA-throughput kernel (16 or 12 independent accumulators per thread) for each ISA the CPU "
            "has, on "
         << peak.threads << " threads pinned one per allowed CPU, all at once for " << seconds * 1e3 << " ms, best of "
         << repeats << "; vendor figure: FLOP/cycle/core from the vendor's documents x the measured clock x "
         << peak.cores << " cores.";
  peak.method = method.str();
  return peak;
}

}  // namespace perfzero::peak
