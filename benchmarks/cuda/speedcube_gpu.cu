#include "cuda/speedcube_gpu.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/speedcube_rng.hpp"

namespace perfzero::cuda::speedcube {

namespace {

constexpr int kThreads = 256;

// Sums (a, b) over the block, in a fixed order: the same inputs give the same bits every run.
__device__ void block_sum(double a, double b, double2* out) {
  __shared__ double sa[kThreads];
  __shared__ double sb[kThreads];
  sa[threadIdx.x] = a;
  sb[threadIdx.x] = b;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) {
      sa[threadIdx.x] += sa[threadIdx.x + half];
      sb[threadIdx.x] += sb[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = make_double2(sa[0], sb[0]);
}

// The Box-Muller tables copied into the block's shared memory: a warp's threads read different
// cells, which constant memory would serialize. Every thread of the block must call it.
__device__ const BoxMullerTables& shared_tables(const BoxMullerTables* global) {
  __shared__ BoxMullerTables tables;
  constexpr int kPairs = sizeof(BoxMullerTables) / sizeof(TablePair);
  static_assert(sizeof(BoxMullerTables) == kPairs * sizeof(TablePair), "the tables are whole pairs");
  auto* to = reinterpret_cast<TablePair*>(&tables);
  const auto* from = reinterpret_cast<const TablePair*>(global);
  for (int i = static_cast<int>(threadIdx.x); i < kPairs; i += static_cast<int>(blockDim.x)) to[i] = from[i];
  __syncthreads();
  return tables;
}

// A grid-stride walk over the cells of a `rows` x `per_row` grid, row-major: the thread's first
// cell costs one division, each step after it an add and a compare. A 64-bit division per cell is
// an emulated routine of dozens of instructions, against about 70 per point of the Box-Muller
// arithmetic the kernel is there to measure.
struct GridWalk {
  std::int64_t cell, row, col;
  std::int64_t stride, stride_rows, stride_cols, per_row;

  __device__ GridWalk(std::int64_t per_row_cells)
      : cell(static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x),
        row(cell / per_row_cells),
        col(cell % per_row_cells),
        stride(static_cast<std::int64_t>(gridDim.x) * kThreads),
        stride_rows(stride / per_row_cells),
        stride_cols(stride % per_row_cells),
        per_row(per_row_cells) {}

  __device__ void next() {
    cell += stride;
    row += stride_rows;
    col += stride_cols;
    if (col >= per_row) {
      col -= per_row;
      ++row;
    }
  }
};

// Fused: every point of the chunk generated in registers; all points summed, and those on even
// rows and even columns (x0, x2 of a group: groups start at multiples of 4).
__global__ void fused_chunk(Problem p, std::int64_t row0, std::int64_t col0, const BoxMullerTables* global_tables,
                            double2* partials) {
  const BoxMullerTables& tables = shared_tables(global_tables);
  const std::int64_t per_row = p.chunk / 4;
  const std::int64_t groups = p.chunk * per_row;
  double all = 0;
  double selected = 0;
  for (GridWalk w(per_row); w.cell < groups; w.next()) {
    const std::int64_t row = row0 + w.row;
    const FourPoints x = four_points_tabled(counter_of(p.n, row, col0 + 4 * w.col), p.seed, tables);
    all += (x.x0 + x.x2) + (x.x1 + x.x3);
    if ((row & 1) == 0) selected += x.x0 + x.x2;
  }
  block_sum(all, selected, &partials[blockIdx.x]);
}

// Materialized, pass 1: the chunk written row-major into `out` (chunk x chunk doubles), all points summed.
__global__ void generate_chunk(Problem p, std::int64_t row0, std::int64_t col0, const BoxMullerTables* global_tables,
                               double* out, double2* partials) {
  const BoxMullerTables& tables = shared_tables(global_tables);
  const std::int64_t per_row = p.chunk / 4;
  const std::int64_t groups = p.chunk * per_row;
  double all = 0;
  for (GridWalk w(per_row); w.cell < groups; w.next()) {
    const std::int64_t r = w.row;
    const std::int64_t c = 4 * w.col;
    const FourPoints x = four_points_tabled(counter_of(p.n, row0 + r, col0 + c), p.seed, tables);
    double* at = out + r * p.chunk + c;
    at[0] = x.x0;
    at[1] = x.x1;
    at[2] = x.x2;
    at[3] = x.x3;
    all += (x.x0 + x.x2) + (x.x1 + x.x3);
  }
  block_sum(all, 0.0, &partials[blockIdx.x]);
}

// Materialized, pass 2: every second row and column of a held chunk (chunk rows and columns start
// even: chunk is a multiple of 16), read as pairs.
__global__ void reduce_chunk(Problem p, const double* chunk, double2* partials) {
  const std::int64_t half = p.chunk / 2;
  const std::int64_t pairs = half * half;
  double selected = 0;
  for (GridWalk w(half); w.cell < pairs; w.next()) {
    const std::int64_t r = 2 * w.row;
    const std::int64_t c = 2 * w.col;
    selected += reinterpret_cast<const double2*>(chunk + r * p.chunk + c)->x;
  }
  block_sum(0.0, selected, &partials[blockIdx.x]);
}

// The block partials of one chunk into its slot, in a fixed order. `which`: 0 both, 1 all, 2 selected.
__global__ void finish_chunk(const double2* partials, int blocks, double2* slot, int which) {
  double all = 0;
  double selected = 0;
  for (int b = static_cast<int>(threadIdx.x); b < blocks; b += kThreads) {
    all += partials[b].x;
    selected += partials[b].y;
  }
  __shared__ double2 result;
  block_sum(all, selected, &result);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (which != 2) slot->x = result.x;
    if (which != 1) slot->y = result.y;
  }
}

// The kernels' own arithmetic (tables in shared memory), so the host's four_points checks what they drew.
__global__ void sample_points(Problem p, const std::int64_t* rows, const std::int64_t* cols, int count,
                              const BoxMullerTables* global_tables, double* out) {
  const BoxMullerTables& tables = shared_tables(global_tables);
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= count) return;
  const FourPoints x = four_points_tabled(counter_of(p.n, rows[i], cols[i]), p.seed, tables);
  out[4 * i] = x.x0;
  out[4 * i + 1] = x.x1;
  out[4 * i + 2] = x.x2;
  out[4 * i + 3] = x.x3;
}

int blocks_for(int device) {
  int sms = 0;
  PERFZERO_CUDA_CALL(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return std::max(1, sms) * 8;
}

DeviceBuffer<BoxMullerTables> upload_tables() {
  DeviceBuffer<BoxMullerTables> tables(1);
  const BoxMullerTables host = make_box_muller_tables();
  PERFZERO_CUDA_CALL(cudaMemcpy(tables.get(), &host, sizeof host, cudaMemcpyHostToDevice));
  // A copy from pageable memory may return before its DMA ends, and the kernels run on
  // non-blocking streams that do not wait for the legacy one: wait here, once per run.
  PERFZERO_CUDA_CALL(cudaDeviceSynchronize());
  return tables;
}

std::int64_t chunk_count(const Problem& p) { return (p.n / p.chunk) * (p.n / p.chunk); }

}  // namespace

std::string check(const Problem& p) {
  if (p.n <= 0 || p.chunk <= 0) return "n and chunk must be positive";
  if (p.chunk % 16 != 0) return "chunk must be a multiple of 16";
  if (p.n % p.chunk != 0) return "n must be a multiple of chunk";
  return "";
}

std::int64_t chunks_held(int device, const Problem& p) {
  PERFZERO_CUDA_CALL(cudaSetDevice(device));
  std::size_t free_bytes = 0;
  std::size_t total = 0;
  PERFZERO_CUDA_CALL(cudaMemGetInfo(&free_bytes, &total));
  const double chunk_bytes = static_cast<double>(p.chunk) * static_cast<double>(p.chunk) * sizeof(double);
  const auto fit = static_cast<std::int64_t>(0.8 * static_cast<double>(free_bytes) / chunk_bytes);
  return std::min(fit, chunk_count(p));
}

struct SingleDeviceRun::State {
  int device;
  Problem p;
  Mode mode;
  int blocks;
  std::int64_t held = 1;
  DeviceBuffer<double2> partials;
  DeviceBuffer<double2> chunk_sums;  // (all, selected) per chunk index
  DeviceBuffer<BoxMullerTables> tables;
  std::unique_ptr<DeviceBuffer<double>> memory;
  std::vector<std::int64_t> done;  // chunk indices this device ran

  State(int d, const Problem& problem, Mode m)
      : device(d),
        p(problem),
        mode(m),
        blocks(blocks_for(d)),
        partials(static_cast<std::size_t>(blocks)),
        chunk_sums(static_cast<std::size_t>(chunk_count(problem))),
        tables(upload_tables()) {
    if (mode == Mode::materialized) {
      held = chunks_held(device, p);
      if (held < 1) throw CudaError("not even one chunk fits in this GPU's free memory");
      memory = std::make_unique<DeviceBuffer<double>>(static_cast<std::size_t>(held * p.chunk * p.chunk));
    }
  }

  void fused(cudaStream_t s, std::int64_t c) {
    const std::int64_t side = p.n / p.chunk;
    fused_chunk<<<blocks, kThreads, 0, s>>>(p, c / side * p.chunk, c % side * p.chunk, tables.get(), partials.get());
    finish_chunk<<<1, kThreads, 0, s>>>(partials.get(), blocks, chunk_sums.get() + c, 0);
    PERFZERO_CUDA_CALL(cudaGetLastError());
    done.push_back(c);
  }

  // A batch of chunks: all generated into the held memory, then all reduced.
  void materialized(cudaStream_t s, const std::vector<std::int64_t>& batch) {
    const std::int64_t side = p.n / p.chunk;
    const std::int64_t chunk_points = p.chunk * p.chunk;
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const std::int64_t c = batch[k];
      double* slot = memory->get() + static_cast<std::int64_t>(k) * chunk_points;
      generate_chunk<<<blocks, kThreads, 0, s>>>(p, c / side * p.chunk, c % side * p.chunk, tables.get(), slot,
                                                 partials.get());
      finish_chunk<<<1, kThreads, 0, s>>>(partials.get(), blocks, chunk_sums.get() + c, 1);
    }
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const double* slot = memory->get() + static_cast<std::int64_t>(k) * chunk_points;
      reduce_chunk<<<blocks, kThreads, 0, s>>>(p, slot, partials.get());
      finish_chunk<<<1, kThreads, 0, s>>>(partials.get(), blocks, chunk_sums.get() + batch[k], 2);
    }
    PERFZERO_CUDA_CALL(cudaGetLastError());
    done.insert(done.end(), batch.begin(), batch.end());
  }

  // Runs chunks taken from `next` until none is left.
  void run(cudaStream_t s, std::atomic<std::int64_t>& next) {
    const std::int64_t chunks = chunk_count(p);
    done.clear();
    while (true) {
      std::vector<std::int64_t> batch;
      for (std::int64_t k = 0; k < (mode == Mode::fused ? 1 : held); ++k) {
        const std::int64_t c = next++;
        if (c >= chunks) break;
        batch.push_back(c);
      }
      if (batch.empty()) return;
      if (mode == Mode::fused) {
        fused(s, batch.front());
      } else {
        materialized(s, batch);
      }
    }
  }

  // Adds this device's chunk sums into `per_chunk` (host, indexed by chunk).
  void collect(std::vector<double2>& per_chunk) {
    std::vector<double2> host(static_cast<std::size_t>(chunk_count(p)));
    PERFZERO_CUDA_CALL(cudaSetDevice(device));
    PERFZERO_CUDA_CALL(
        cudaMemcpy(host.data(), chunk_sums.get(), host.size() * sizeof(double2), cudaMemcpyDeviceToHost));
    for (const std::int64_t c : done) per_chunk[static_cast<std::size_t>(c)] = host[static_cast<std::size_t>(c)];
  }
};

namespace {

Sums add_in_chunk_order(const std::vector<double2>& per_chunk) {
  Sums s;
  for (const double2& c : per_chunk) {
    s.all += c.x;
    s.selected += c.y;
  }
  return s;
}

}  // namespace

SingleDeviceRun::SingleDeviceRun(int device, const Problem& p, Mode mode) {
  PERFZERO_CUDA_CALL(cudaSetDevice(device));
  state_ = new State(device, p, mode);
}

SingleDeviceRun::~SingleDeviceRun() { delete state_; }

void SingleDeviceRun::enqueue(void* stream) {
  std::atomic<std::int64_t> next{0};
  state_->run(static_cast<cudaStream_t>(stream), next);
}

Sums SingleDeviceRun::collect() {
  std::vector<double2> per_chunk(static_cast<std::size_t>(chunk_count(state_->p)));
  state_->collect(per_chunk);
  return add_in_chunk_order(per_chunk);
}

Sums run_on_devices(const Problem& p, Mode mode, const std::vector<int>& devices) {
  std::vector<std::unique_ptr<SingleDeviceRun::State>> states;
  std::vector<cudaStream_t> streams(devices.size(), nullptr);
  for (std::size_t i = 0; i < devices.size(); ++i) {
    PERFZERO_CUDA_CALL(cudaSetDevice(devices[i]));
    states.push_back(std::make_unique<SingleDeviceRun::State>(devices[i], p, mode));
    PERFZERO_CUDA_CALL(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
  }
  std::atomic<std::int64_t> next{0};
  std::vector<std::string> errors(devices.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    threads.emplace_back([&, i] {
      try {
        PERFZERO_CUDA_CALL(cudaSetDevice(devices[i]));
        states[i]->run(streams[i], next);
        PERFZERO_CUDA_CALL(cudaStreamSynchronize(streams[i]));
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    cudaSetDevice(devices[i]);
    cudaStreamDestroy(streams[i]);
  }
  for (const auto& e : errors) {
    if (!e.empty()) throw CudaError(e);
  }
  std::vector<double2> per_chunk(static_cast<std::size_t>(chunk_count(p)));
  for (auto& s : states) s->collect(per_chunk);
  return add_in_chunk_order(per_chunk);
}

double max_sample_difference(int device, const Problem& p) {
  PERFZERO_CUDA_CALL(cudaSetDevice(device));
  constexpr int kCount = 256;
  std::vector<std::int64_t> rows(kCount);
  std::vector<std::int64_t> cols(kCount);
  for (int i = 0; i < kCount; ++i) {
    // Spread over the array, the last group of the last row included.
    const std::int64_t k = static_cast<std::int64_t>(i) * 7919 + 13;
    rows[static_cast<std::size_t>(i)] = i == kCount - 1 ? p.n - 1 : k % p.n;
    cols[static_cast<std::size_t>(i)] = i == kCount - 1 ? p.n - 4 : (k * 104729) % p.n / 4 * 4;
  }
  DeviceBuffer<std::int64_t> d_rows(kCount);
  DeviceBuffer<std::int64_t> d_cols(kCount);
  DeviceBuffer<double> d_out(4 * kCount);
  PERFZERO_CUDA_CALL(cudaMemcpy(d_rows.get(), rows.data(), d_rows.bytes(), cudaMemcpyHostToDevice));
  PERFZERO_CUDA_CALL(cudaMemcpy(d_cols.get(), cols.data(), d_cols.bytes(), cudaMemcpyHostToDevice));
  const DeviceBuffer<BoxMullerTables> tables = upload_tables();
  sample_points<<<1, kCount>>>(p, d_rows.get(), d_cols.get(), kCount, tables.get(), d_out.get());
  PERFZERO_CUDA_CALL(cudaGetLastError());
  std::vector<double> out(4 * kCount);
  PERFZERO_CUDA_CALL(cudaMemcpy(out.data(), d_out.get(), d_out.bytes(), cudaMemcpyDeviceToHost));
  double worst = 0;
  for (int i = 0; i < kCount; ++i) {
    const FourPoints x =
        four_points(counter_of(p.n, rows[static_cast<std::size_t>(i)], cols[static_cast<std::size_t>(i)]), p.seed);
    const double expected[4] = {x.x0, x.x1, x.x2, x.x3};
    for (int t = 0; t < 4; ++t)
      worst = std::max(worst, std::fabs(out[static_cast<std::size_t>(4 * i + t)] - expected[t]));
  }
  return worst;
}

}  // namespace perfzero::cuda::speedcube
