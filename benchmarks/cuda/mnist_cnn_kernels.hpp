#pragma once
// The MNIST CNN training step's own CUDA kernels (mnist_cnn_kernels.cu), the parts cuDNN and cuBLAS
// do not do: bias add and bias gradient, dropout, softmax cross-entropy and Keras' Adadelta. Each
// function enqueues one kernel on `stream` and checks the launch. Tensors are NCHW floats; a dense
// layer's [batch][features] is NCHW with H = W = 1.
#include <cstdint>

#include <cuda_runtime.h>

namespace perfzero::cuda::cnn {

// out[b][c][j] += bias[c], j over the hw positions of a channel.
void bias_add(float* out, const float* bias, int batch, int channels, int hw, cudaStream_t stream);
// d_bias[c] = sum over b and j of d_out[b][c][j], in a fixed order (the same sum every step).
void bias_grad(const float* d_out, float* d_bias, int batch, int channels, int hw, cudaStream_t stream);
// Inverted dropout: out[i] = in[i] / (1 - rate) where element i is kept, else 0; the mask is a hash
// of (seed, i), the OpenCL family's, so calling it again with the seed on the gradient is the backward
// pass and no mask is stored.
void dropout(const float* in, float* out, std::int64_t n, float rate, std::uint32_t seed, cudaStream_t stream);
// Softmax cross-entropy over 10 classes: loss[b], and d_logits = (softmax - one_hot) / batch.
void softmax_cross_entropy(const float* logits, const int* labels, float* d_logits, float* loss, int batch,
                           cudaStream_t stream);
// Keras' Adadelta (rho 0.95, epsilon 1e-7, learning rate 1.0) over n parameters.
void adadelta(float* value, const float* grad, float* accum_grad, float* accum_update, std::int64_t n,
              cudaStream_t stream);

}  // namespace perfzero::cuda::cnn
