// The MNIST CNN training step on one GPU (mnist_cnn_trainer.hpp). Host code only: cuDNN's legacy
// ("backend-free") convolution, pooling and activation calls, cuBLAS for the dense layers, and the
// launchers of our own kernels. cuDNN 9 marks the legacy calls deprecated, but its headers warn only
// when CUDNN_WARN_DEPRECATED is defined, which this project does not do; they are what Keras'
// TensorFlow backend and PyTorch still use for plain 2-D convolutions.
//
// Layouts: every activation is NCHW fp32; the dense layers' [batch][features] is NCHW with H = W = 1.
// Weights are stored as the OpenCL trainer stores them: conv filters [out][in][3][3] (cuDNN's NCHW
// filter layout, KCRS), dense weights [out][in] row-major, the input of Dense128 being the pooled
// tensor flattened in NCHW order (c * 144 + y * 12 + x).
//
// cuBLAS is column-major: a row-major [R][C] matrix is, to cuBLAS, the C x R matrix (its transpose)
// with leading dimension C. With X = in [B][K], W = [N][K], Y = out [B][N] row-major:
//   forward        Y = X W^T    ->  cuBLAS Y' (N x B) = W' ^T (K x N)^T  X' (K x B): Sgemm(T, N, N, B, K)
//   weight grad dW = dY^T X     ->  cuBLAS dW' (K x N) = X' (K x B)  dY'^T (B x N): Sgemm(N, T, K, N, B)
//   input grad  dX = dY W       ->  cuBLAS dX' (K x B) = W' (K x N)  dY' (N x B):   Sgemm(N, N, K, B, N)
#include "cuda/mnist_cnn_trainer.hpp"

#include <cublas_v2.h>
#include <cudnn.h>

#include <numeric>

#include "cuda/cuda_check.hpp"
#include "cuda/mnist_cnn_kernels.hpp"
#include "cuda/mnist_cnn_trainer_impl.hpp"

namespace perfzero::cuda {

void CnnTrainer::Impl::step(const float* images, const int* labels) {
  ++steps;
  // Dropout seeds: the OpenCL trainer's, so both draw the same masks at the same step.
  const std::uint32_t drop1 = 2 * steps + 1;
  const std::uint32_t drop2 = 2 * steps + 2;
  forward(images, labels, drop1, drop2);
  backward(images, drop1, drop2);

  // Adadelta over every parameter at once, then the losses (from before the update) to the host.
  cnn::adadelta(values.get(), grads.get(), accum_grad.get(), accum_update.get(),
                static_cast<std::int64_t>(layout.total), stream);
  PERFZERO_CUDA_CALL(
      cudaMemcpyAsync(host_losses.get(), losses.get(), b * sizeof(float), cudaMemcpyDeviceToHost, stream));
}

// The loss's gradient with respect to the logits is in d_logits once it returns.
void CnnTrainer::Impl::forward(const float* images, const int* labels, std::uint32_t drop1, std::uint32_t drop2) {
  const float one = 1.0F;
  const float zero = 0.0F;
  const int n = batch;
  const cudnnHandle_t dnn = cudnn.get();
  const cublasHandle_t blas = cublas.get();
  void* ws = workspace->get();
  const std::size_t ws_bytes = workspace->bytes();
  const auto n_pooled = static_cast<std::int64_t>(n) * kPooled;
  const auto n_dense = static_cast<std::int64_t>(n) * 128;

  // Forward. conv1 + bias, ReLU; conv2 + bias, ReLU; 2x2 max pooling; dropout 0.25.
  PERFZERO_CUDNN_CALL(cudnnConvolutionForward(dnn, &one, x_desc.get(), images, w1_desc.get(), value(kW1), conv1.get(),
                                              conv1_forward, ws, ws_bytes, &zero, c1_desc.get(), z1.get()));
  cnn::bias_add(z1.get(), value(kB1), n, 32, 26 * 26, stream);
  PERFZERO_CUDNN_CALL(
      cudnnActivationForward(dnn, relu.get(), &one, c1_desc.get(), z1.get(), &zero, c1_desc.get(), a1.get()));
  PERFZERO_CUDNN_CALL(cudnnConvolutionForward(dnn, &one, c1_desc.get(), a1.get(), w2_desc.get(), value(kW2),
                                              conv2.get(), conv2_forward, ws, ws_bytes, &zero, c2_desc.get(),
                                              z2.get()));
  cnn::bias_add(z2.get(), value(kB2), n, 64, 24 * 24, stream);
  PERFZERO_CUDNN_CALL(
      cudnnActivationForward(dnn, relu.get(), &one, c2_desc.get(), z2.get(), &zero, c2_desc.get(), a2.get()));
  PERFZERO_CUDNN_CALL(
      cudnnPoolingForward(dnn, pool.get(), &one, c2_desc.get(), a2.get(), &zero, pooled_desc.get(), pooled.get()));
  cnn::dropout(pooled.get(), d1.get(), n_pooled, 0.25F, drop1, stream);
  // Dense128 (h_pre = d1 w3^T + b3), ReLU, dropout 0.5; Dense10 (logits = d2 w4^T + b4).
  PERFZERO_CUBLAS_CALL(cublasSgemm(blas, CUBLAS_OP_T, CUBLAS_OP_N, 128, n, kPooled, &one, value(kW3), kPooled, d1.get(),
                                   kPooled, &zero, h_pre.get(), 128));
  cnn::bias_add(h_pre.get(), value(kB3), n, 128, 1, stream);
  PERFZERO_CUDNN_CALL(
      cudnnActivationForward(dnn, relu.get(), &one, dense_desc.get(), h_pre.get(), &zero, dense_desc.get(), h.get()));
  cnn::dropout(h.get(), d2.get(), n_dense, 0.5F, drop2, stream);
  PERFZERO_CUBLAS_CALL(cublasSgemm(blas, CUBLAS_OP_T, CUBLAS_OP_N, 10, n, 128, &one, value(kW4), 128, d2.get(), 128,
                                   &zero, logits.get(), 10));
  cnn::bias_add(logits.get(), value(kB4), n, 10, 1, stream);
  cnn::softmax_cross_entropy(logits.get(), labels, d_logits.get(), losses.get(), n, stream);
}

// Every parameter's gradient into `grads`, through the same dropout masks as the forward pass.
void CnnTrainer::Impl::backward(const float* images, std::uint32_t drop1, std::uint32_t drop2) {
  const float one = 1.0F;
  const float zero = 0.0F;
  const int n = batch;
  const cudnnHandle_t dnn = cudnn.get();
  const cublasHandle_t blas = cublas.get();
  void* ws = workspace->get();
  const std::size_t ws_bytes = workspace->bytes();
  const auto n_pooled = static_cast<std::int64_t>(n) * kPooled;
  const auto n_dense = static_cast<std::int64_t>(n) * 128;

  // Backward. Dense10: weights, bias, input (through dropout 0.5, then Dense128's ReLU).
  PERFZERO_CUBLAS_CALL(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, 128, 10, n, &one, d2.get(), 128, d_logits.get(), 10,
                                   &zero, grad(kW4), 128));
  cnn::bias_grad(d_logits.get(), grad(kB4), n, 10, 1, stream);
  PERFZERO_CUBLAS_CALL(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, 128, n, 10, &one, value(kW4), 128, d_logits.get(),
                                   10, &zero, g_d2.get(), 128));
  cnn::dropout(g_d2.get(), g_h.get(), n_dense, 0.5F, drop2, stream);  // the forward mask: same seed
  PERFZERO_CUDNN_CALL(cudnnActivationBackward(dnn, relu.get(), &one, dense_desc.get(), h.get(), dense_desc.get(),
                                              g_h.get(), dense_desc.get(), h_pre.get(), &zero, dense_desc.get(),
                                              g_h_pre.get()));
  // Dense128: weights, bias, input (through dropout 0.25).
  PERFZERO_CUBLAS_CALL(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, kPooled, 128, n, &one, d1.get(), kPooled,
                                   g_h_pre.get(), 128, &zero, grad(kW3), kPooled));
  cnn::bias_grad(g_h_pre.get(), grad(kB3), n, 128, 1, stream);
  PERFZERO_CUBLAS_CALL(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, kPooled, n, 128, &one, value(kW3), kPooled,
                                   g_h_pre.get(), 128, &zero, g_d1.get(), kPooled));
  cnn::dropout(g_d1.get(), g_pooled.get(), n_pooled, 0.25F, drop1, stream);
  // Pooling, conv2's ReLU, conv2 (filter, bias, data), conv1's ReLU, conv1 (filter, bias).
  PERFZERO_CUDNN_CALL(cudnnPoolingBackward(dnn, pool.get(), &one, pooled_desc.get(), pooled.get(), pooled_desc.get(),
                                           g_pooled.get(), c2_desc.get(), a2.get(), &zero, c2_desc.get(), g_a2.get()));
  PERFZERO_CUDNN_CALL(cudnnActivationBackward(dnn, relu.get(), &one, c2_desc.get(), a2.get(), c2_desc.get(), g_a2.get(),
                                              c2_desc.get(), z2.get(), &zero, c2_desc.get(), g_z2.get()));
  PERFZERO_CUDNN_CALL(cudnnConvolutionBackwardFilter(dnn, &one, c1_desc.get(), a1.get(), c2_desc.get(), g_z2.get(),
                                                     conv2.get(), conv2_backward_filter, ws, ws_bytes, &zero,
                                                     w2_desc.get(), grad(kW2)));
  cnn::bias_grad(g_z2.get(), grad(kB2), n, 64, 24 * 24, stream);
  PERFZERO_CUDNN_CALL(cudnnConvolutionBackwardData(dnn, &one, w2_desc.get(), value(kW2), c2_desc.get(), g_z2.get(),
                                                   conv2.get(), conv2_backward_data, ws, ws_bytes, &zero, c1_desc.get(),
                                                   g_a1.get()));
  PERFZERO_CUDNN_CALL(cudnnActivationBackward(dnn, relu.get(), &one, c1_desc.get(), a1.get(), c1_desc.get(), g_a1.get(),
                                              c1_desc.get(), z1.get(), &zero, c1_desc.get(), g_z1.get()));
  PERFZERO_CUDNN_CALL(cudnnConvolutionBackwardFilter(dnn, &one, x_desc.get(), images, c1_desc.get(), g_z1.get(),
                                                     conv1.get(), conv1_backward_filter, ws, ws_bytes, &zero,
                                                     w1_desc.get(), grad(kW1)));
  cnn::bias_grad(g_z1.get(), grad(kB1), n, 32, 26 * 26, stream);
}

CnnTrainer::CnnTrainer(int batch, std::uint32_t seed, bool tf32, bool find_algorithms, cudaStream_t stream)
    : impl_(std::make_unique<Impl>(batch, seed, tf32, find_algorithms, stream)) {}

CnnTrainer::~CnnTrainer() = default;

void CnnTrainer::step(const float* images, const int* labels) { impl_->step(images, labels); }

double CnnTrainer::loss() const {
  const float* l = impl_->host_losses.get();
  return std::accumulate(l, l + impl_->batch, 0.0) / static_cast<double>(impl_->batch);
}

std::int64_t CnnTrainer::parameters() const {
  std::size_t total = 0;
  for (const Impl::ParamShape& s : Impl::kShapes) total += s.size;
  return static_cast<std::int64_t>(total);
}

std::string CnnTrainer::algorithms() const { return impl_->algorithms; }

std::int64_t CnnTrainer::workspace_bytes() const { return static_cast<std::int64_t>(impl_->workspace->bytes()); }

}  // namespace perfzero::cuda
