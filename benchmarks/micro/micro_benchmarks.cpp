// perfzero-micro: Google Benchmark micro-benchmarks that help explain the big methods: memory copy
// and read bandwidth by working-set size (which cache level serves the speed cube and STREAM), and
// random-number throughput (Philox, one speed-cube row, std::mt19937 for scale). Run through
// perfzero as a method of type google_benchmark (benchmarks/suites/cpu_smoke.yaml), or by hand.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "speedcube/philox.hpp"
#include "speedcube/speedcube.hpp"

namespace {

void BM_memcpy(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  std::vector<char> src(bytes, 1);
  std::vector<char> dst(bytes, 0);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop idiom
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_memcpy)->RangeMultiplier(16)->Range(4 << 10, 64 << 20);

void BM_read_sum(benchmark::State& state) {
  const auto count = static_cast<std::size_t>(state.range(0)) / sizeof(double);
  std::vector<double> data(count, 1.0);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop idiom
    double sum = std::accumulate(data.begin(), data.end(), 0.0);
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * count * sizeof(double)));
}
BENCHMARK(BM_read_sum)->RangeMultiplier(16)->Range(4 << 10, 64 << 20);

void BM_philox4x32_10(benchmark::State& state) {
  std::uint64_t counter = 0;
  std::uint32_t sink = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop idiom
    const auto w = perfzero::speedcube::philox4x32_10(counter++, 42);
    sink ^= w.w0 ^ w.w1 ^ w.w2 ^ w.w3;
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 4);  // 32-bit words
}
BENCHMARK(BM_philox4x32_10);

void BM_speedcube_row(benchmark::State& state) {
  perfzero::speedcube::Problem p;
  p.n = 2000;
  p.chunk = 2000;
  std::vector<double> row(2000);
  std::int64_t r = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop idiom
    perfzero::speedcube::generate_row_segment(p, r++ % p.n, 0, p.n, row.data());
    benchmark::DoNotOptimize(row.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * p.n);  // normals
}
BENCHMARK(BM_speedcube_row);

void BM_mt19937_normal(benchmark::State& state) {
  std::mt19937_64 engine(42);
  std::normal_distribution<double> normal(10.0, 1.0);
  double sink = 0;
  for (auto _ : state) sink += normal(engine);  // NOLINT(clang-analyzer-deadcode.DeadStores)
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_mt19937_normal);

}  // namespace

BENCHMARK_MAIN();
