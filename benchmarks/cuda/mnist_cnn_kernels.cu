// The MNIST CNN training step's own kernels (mnist_cnn_kernels.hpp). The arithmetic is the OpenCL
// family's (benchmarks/opencl/mnist_kernels.cpp), dropout's hash included, so the CUDA and OpenCL
// steps draw the same masks and compute the same losses up to float rounding.
#include "cuda/mnist_cnn_kernels.hpp"

#include <algorithm>

#include "cuda/cuda_check.hpp"

namespace perfzero::cuda::cnn {

namespace {

constexpr int kThreads = 256;
constexpr int kReduceThreads = 1024;  // bias_grad: one block per channel

// Blocks for a grid-stride loop over n elements.
unsigned blocks_for(std::int64_t n) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((n + kThreads - 1) / kThreads, 1, 1 << 16));
}

__global__ void bias_add_kernel(float* out, const float* bias, int channels, int hw, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] += bias[(i / hw) % channels];
  }
}

// One block per channel; thread t sums elements t, t + blockDim, ... of the channel (consecutive
// threads read consecutive positions of a plane), then the block adds the threads' sums in a fixed
// tree: no atomics, the same result every step.
__global__ void bias_grad_kernel(const float* d_out, float* d_bias, int batch, int channels, int hw) {
  const int c = static_cast<int>(blockIdx.x);
  const int per_channel = batch * hw;
  float sum = 0.0f;
#pragma unroll 4
  for (int i = static_cast<int>(threadIdx.x); i < per_channel; i += kReduceThreads) {
    const int b = i / hw;
    const int j = i - b * hw;
    sum += d_out[(static_cast<std::int64_t>(b) * channels + c) * hw + j];
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  __shared__ float warp_sums[kReduceThreads / 32];
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = warp_sums[lane];  // kReduceThreads / 32 == 32 warps: one per lane
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) d_bias[c] = sum;
  }
}

__global__ void dropout_kernel(const float* in, float* out, std::int64_t n, float rate, std::uint32_t seed) {
  const float keep = 1.0f - rate;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    // The OpenCL kernel's hash of (seed, i), word for word (i < 2^32: batch <= 4096).
    std::uint32_t h = static_cast<std::uint32_t>(i) * 0x9E3779B1u ^ seed * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    out[i] = (static_cast<float>(h >> 8) * (1.0f / 16777216.0f) < keep) ? in[i] / keep : 0.0f;
  }
}

__global__ void softmax_cross_entropy_kernel(const float* logits, const int* labels, float* d_logits, float* loss,
                                             int batch) {
  const int b = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (b >= batch) return;
  const float* z = logits + b * 10;
  float top = z[0];
  for (int j = 1; j < 10; ++j) top = fmaxf(top, z[j]);
  float total = 0.0f;
  for (int j = 0; j < 10; ++j) total += expf(z[j] - top);
  const int label = labels[b];
  for (int j = 0; j < 10; ++j) {
    const float p = expf(z[j] - top) / total;
    d_logits[b * 10 + j] = (p - (j == label ? 1.0f : 0.0f)) / static_cast<float>(batch);
  }
  loss[b] = logf(total) + top - z[label];
}

__global__ void adadelta_kernel(float* w, const float* g, float* accum_grad, float* accum_update, std::int64_t n) {
  const float rho = 0.95f;
  const float eps = 1e-7f;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float ag = rho * accum_grad[i] + (1.0f - rho) * g[i] * g[i];
    const float delta = sqrtf(accum_update[i] + eps) / sqrtf(ag + eps) * g[i];
    accum_grad[i] = ag;
    accum_update[i] = rho * accum_update[i] + (1.0f - rho) * delta * delta;
    w[i] -= delta;
  }
}

}  // namespace

void bias_add(float* out, const float* bias, int batch, int channels, int hw, cudaStream_t stream) {
  const std::int64_t n = static_cast<std::int64_t>(batch) * channels * hw;
  bias_add_kernel<<<blocks_for(n), kThreads, 0, stream>>>(out, bias, channels, hw, n);
  PERFZERO_CUDA_CALL(cudaGetLastError());
}

void bias_grad(const float* d_out, float* d_bias, int batch, int channels, int hw, cudaStream_t stream) {
  bias_grad_kernel<<<static_cast<unsigned>(channels), kReduceThreads, 0, stream>>>(d_out, d_bias, batch, channels, hw);
  PERFZERO_CUDA_CALL(cudaGetLastError());
}

void dropout(const float* in, float* out, std::int64_t n, float rate, std::uint32_t seed, cudaStream_t stream) {
  dropout_kernel<<<blocks_for(n), kThreads, 0, stream>>>(in, out, n, rate, seed);
  PERFZERO_CUDA_CALL(cudaGetLastError());
}

void softmax_cross_entropy(const float* logits, const int* labels, float* d_logits, float* loss, int batch,
                           cudaStream_t stream) {
  softmax_cross_entropy_kernel<<<blocks_for(batch), kThreads, 0, stream>>>(logits, labels, d_logits, loss, batch);
  PERFZERO_CUDA_CALL(cudaGetLastError());
}

void adadelta(float* value, const float* grad, float* accum_grad, float* accum_update, std::int64_t n,
              cudaStream_t stream) {
  adadelta_kernel<<<blocks_for(n), kThreads, 0, stream>>>(value, grad, accum_grad, accum_update, n);
  PERFZERO_CUDA_CALL(cudaGetLastError());
}

}  // namespace perfzero::cuda::cnn
