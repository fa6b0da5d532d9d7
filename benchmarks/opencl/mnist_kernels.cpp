#include "opencl/mnist_kernels.hpp"

namespace perfzero::opencl {

const char* const kMnistKernels = R"CL(
// 3x3 convolution, stride 1, no padding, bias and ReLU: out[b][o][y][x], H x W input.
__kernel void conv3x3_relu(__global const float* in, __global const float* w, __global const float* bias,
                           __global float* out, const int C, const int H, const int W, const int O) {
  const int OH = H - 2, OW = W - 2;
  const int i = get_global_id(0);
  const int x = i % OW, y = (i / OW) % OH, o = (i / (OW * OH)) % O, b = i / (OW * OH * O);
  float sum = bias[o];
  for (int c = 0; c < C; ++c) {
    __global const float* p = in + ((b * C + c) * H + y) * W + x;
    __global const float* k = w + (o * C + c) * 9;
    sum += p[0] * k[0] + p[1] * k[1] + p[2] * k[2] + p[W] * k[3] + p[W + 1] * k[4] + p[W + 2] * k[5] +
           p[2 * W] * k[6] + p[2 * W + 1] * k[7] + p[2 * W + 2] * k[8];
  }
  out[i] = fmax(sum, 0.0f);
}

// The input gradient of conv3x3 (d_out already through its ReLU), times the ReLU mask of the
// input's own activation `act`: d_in[b][c][y][x].
__kernel void conv3x3_backward_data(__global const float* d_out, __global const float* w, __global const float* act,
                                    __global float* d_in, const int C, const int H, const int W, const int O) {
  const int OH = H - 2, OW = W - 2;
  const int i = get_global_id(0);
  const int x = i % W, y = (i / W) % H, c = (i / (W * H)) % C, b = i / (W * H * C);
  float sum = 0.0f;
  for (int o = 0; o < O; ++o) {
    for (int ky = 0; ky < 3; ++ky) {
      const int oy = y - ky;
      if (oy < 0 || oy >= OH) continue;
      for (int kx = 0; kx < 3; ++kx) {
        const int ox = x - kx;
        if (ox < 0 || ox >= OW) continue;
        sum += d_out[((b * O + o) * OH + oy) * OW + ox] * w[((o * C + c) * 3 + ky) * 3 + kx];
      }
    }
  }
  d_in[i] = act[i] > 0.0f ? sum : 0.0f;
}

// Weight gradient of conv3x3: d_w[o][c][ky][kx] summed over the batch and the output positions.
__kernel void conv3x3_backward_weights(__global const float* in, __global const float* d_out, __global float* d_w,
                                       const int B, const int C, const int H, const int W, const int O) {
  const int OH = H - 2, OW = W - 2;
  const int i = get_global_id(0);
  const int kx = i % 3, ky = (i / 3) % 3, c = (i / 9) % C, o = i / (9 * C);
  float sum = 0.0f;
  for (int b = 0; b < B; ++b) {
    __global const float* g = d_out + (b * O + o) * OH * OW;
    __global const float* p = in + ((b * C + c) * H + ky) * W + kx;
    for (int y = 0; y < OH; ++y) {
      for (int x = 0; x < OW; ++x) sum += g[y * OW + x] * p[y * W + x];
    }
  }
  d_w[i] = sum;
}

// Bias gradient of an NCHW output: d_bias[o] = sum over batch and positions.
__kernel void bias_backward(__global const float* d_out, __global float* d_bias, const int B, const int O,
                            const int HW) {
  const int o = get_global_id(0);
  float sum = 0.0f;
  for (int b = 0; b < B; ++b) {
    for (int j = 0; j < HW; ++j) sum += d_out[(b * O + o) * HW + j];
  }
  d_bias[o] = sum;
}

// 2x2 max pooling, stride 2, on H x W planes; `where` keeps the winning input position.
__kernel void maxpool2(__global const float* in, __global float* out, __global int* where, const int H, const int W) {
  const int PH = H / 2, PW = W / 2;
  const int i = get_global_id(0);
  const int x = i % PW, y = (i / PW) % PH, plane = i / (PW * PH);
  int best = (2 * y) * W + 2 * x;
  __global const float* p = in + plane * H * W;
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) {
      const int at = (2 * y + dy) * W + 2 * x + dx;
      if (p[at] > p[best]) best = at;
    }
  }
  out[i] = p[best];
  where[i] = best;
}

// Pooling's input gradient (the winner takes it all), times the ReLU mask of the pooled activation.
__kernel void maxpool2_backward(__global const float* d_out, __global const int* where, __global const float* act,
                                __global float* d_in, const int H, const int W) {
  const int PH = H / 2, PW = W / 2;
  const int i = get_global_id(0);
  const int at = i % (H * W), plane = i / (H * W);
  const int pooled = plane * PH * PW + (at / W / 2) * PW + (at % W) / 2;
  d_in[i] = (where[pooled] == at && act[i] > 0.0f) ? d_out[pooled] : 0.0f;
}

// Inverted dropout with a mask drawn from a hash of (seed, index): the backward pass calls it again
// with the same seed on the gradient, so no mask is stored.
__kernel void dropout(__global const float* in, __global float* out, const float rate, const uint seed) {
  const uint i = get_global_id(0);
  uint h = i * 0x9E3779B1u ^ seed * 0x85EBCA77u;
  h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
  const float keep = 1.0f - rate;
  out[i] = ((float)(h >> 8) * (1.0f / 16777216.0f) < keep) ? in[i] / keep : 0.0f;
}

// Fully connected: out[b][n] = bias[n] + sum_k in[b][k] w[n][k], ReLU when asked.
__kernel void dense(__global const float* in, __global const float* w, __global const float* bias,
                    __global float* out, const int K, const int N, const int relu) {
  const int i = get_global_id(0);
  const int n = i % N, b = i / N;
  float sum = bias[n];
  for (int k = 0; k < K; ++k) sum += in[b * K + k] * w[n * K + k];
  out[i] = relu ? fmax(sum, 0.0f) : sum;
}

// d_in[b][k] = sum_n d_out[b][n] w[n][k]
__kernel void dense_backward_data(__global const float* d_out, __global const float* w, __global float* d_in,
                                  const int K, const int N) {
  const int i = get_global_id(0);
  const int k = i % K, b = i / K;
  float sum = 0.0f;
  for (int n = 0; n < N; ++n) sum += d_out[b * N + n] * w[n * K + k];
  d_in[i] = sum;
}

// d_w[n][k] = sum_b d_out[b][n] in[b][k]; the k = 0 work-item also writes d_bias[n].
__kernel void dense_backward_weights(__global const float* in, __global const float* d_out, __global float* d_w,
                                     __global float* d_bias, const int B, const int K, const int N) {
  const int i = get_global_id(0);
  const int k = i % K, n = i / K;
  float sum = 0.0f, bias = 0.0f;
  for (int b = 0; b < B; ++b) {
    sum += d_out[b * N + n] * in[b * K + k];
    bias += d_out[b * N + n];
  }
  d_w[i] = sum;
  if (k == 0) d_bias[n] = bias;
}

// g *= (act > 0): the ReLU of a dense layer, after the dropout that followed it.
__kernel void relu_backward(__global float* g, __global const float* act) {
  const int i = get_global_id(0);
  if (act[i] <= 0.0f) g[i] = 0.0f;
}

// Softmax cross-entropy over 10 classes: loss[b], and d_logits = (softmax - one_hot) / B.
__kernel void softmax_cross_entropy(__global const float* logits, __global const int* labels,
                                    __global float* d_logits, __global float* loss, const int B) {
  const int b = get_global_id(0);
  __global const float* z = logits + b * 10;
  float top = z[0];
  for (int j = 1; j < 10; ++j) top = fmax(top, z[j]);
  float total = 0.0f;
  for (int j = 0; j < 10; ++j) total += exp(z[j] - top);
  for (int j = 0; j < 10; ++j) {
    const float p = exp(z[j] - top) / total;
    d_logits[b * 10 + j] = (p - (j == labels[b] ? 1.0f : 0.0f)) / (float)B;
  }
  loss[b] = log(total) + top - z[labels[b]];
}

// Keras' Adadelta (rho 0.95, epsilon 1e-7, learning rate 1.0), as the brief's run used.
__kernel void adadelta(__global float* w, __global const float* g, __global float* accum_grad,
                       __global float* accum_update) {
  const int i = get_global_id(0);
  const float rho = 0.95f, eps = 1e-7f;
  const float ag = rho * accum_grad[i] + (1.0f - rho) * g[i] * g[i];
  const float delta = sqrt(accum_update[i] + eps) / sqrt(ag + eps) * g[i];
  accum_grad[i] = ag;
  accum_update[i] = rho * accum_update[i] + (1.0f - rho) * delta * delta;
  w[i] -= delta;
}
)CL";

}  // namespace perfzero::opencl
