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

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

#include <fmt/format.h>

#include "common/mnist_synthetic.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cudnn_algorithms.hpp"
#include "cuda/cudnn_handles.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/mnist_cnn_kernels.hpp"

namespace perfzero::cuda {

namespace {

constexpr int kPooled = 64 * 12 * 12;  // the flattened input of Dense128

// The parameters, in the OpenCL trainer's order (their initial values are drawn in this order from
// one stream), each in one arena per role (values, gradients, Adadelta's two accumulators) so one
// Adadelta launch updates them all. Each starts on a 256-byte boundary; the padding between them
// stays zero (zero gradient, zero update).
enum Param : int { kW1, kB1, kW2, kB2, kW3, kB3, kW4, kB4, kParamCount };

struct ParamShape {
  std::size_t size;
  std::size_t fan_in;  // 0 for a bias (zeros, as Keras initializes them)
};

constexpr std::array<ParamShape, kParamCount> kShapes{{{std::size_t{32} * 9, 9},
                                                       {32, 0},
                                                       {std::size_t{64} * 32 * 9, std::size_t{32} * 9},
                                                       {64, 0},
                                                       {std::size_t{128} * kPooled, kPooled},
                                                       {128, 0},
                                                       {std::size_t{10} * 128, 128},
                                                       {10, 0}}};

struct Layout {
  std::array<std::size_t, kParamCount> offset{};
  std::size_t total = 0;
};

Layout make_layout() {
  constexpr std::size_t kAlign = 64;  // floats
  Layout l;
  for (int p = 0; p < kParamCount; ++p) {
    l.offset[static_cast<std::size_t>(p)] = l.total;
    l.total += (kShapes[static_cast<std::size_t>(p)].size + kAlign - 1) / kAlign * kAlign;
  }
  return l;
}

}  // namespace

struct CnnTrainer::Impl {
  Impl(int batch_size, std::uint32_t seed, bool use_tf32, bool find, cudaStream_t work_stream);

  float* value(Param p) const { return values.get() + layout.offset[static_cast<std::size_t>(p)]; }
  float* grad(Param p) const { return grads.get() + layout.offset[static_cast<std::size_t>(p)]; }
  void choose_algorithms(bool find);
  void step(const float* images, const int* labels);

  const int batch;
  const std::size_t b;  // batch, as a size
  const bool tf32;
  cudaStream_t stream;
  std::uint32_t steps = 0;

  const Layout layout = make_layout();
  DeviceBuffer<float> values{layout.total};
  DeviceBuffer<float> grads{layout.total};
  DeviceBuffer<float> accum_grad{layout.total};
  DeviceBuffer<float> accum_update{layout.total};

  // Forward: conv outputs z (before ReLU) and a (after), pooled, dropped-out d, dense h.
  DeviceBuffer<float> z1{b * 32 * 26 * 26}, a1{b * 32 * 26 * 26};
  DeviceBuffer<float> z2{b * 64 * 24 * 24}, a2{b * 64 * 24 * 24};
  DeviceBuffer<float> pooled{b * kPooled}, d1{b * kPooled};
  DeviceBuffer<float> h_pre{b * 128}, h{b * 128}, d2{b * 128};
  DeviceBuffer<float> logits{b * 10}, d_logits{b * 10}, losses{b};
  // Backward: g_x is the gradient of the loss with respect to x.
  DeviceBuffer<float> g_d2{b * 128}, g_h{b * 128}, g_h_pre{b * 128};
  DeviceBuffer<float> g_d1{b * kPooled}, g_pooled{b * kPooled};
  DeviceBuffer<float> g_a2{b * 64 * 24 * 24}, g_z2{b * 64 * 24 * 24};
  DeviceBuffer<float> g_a1{b * 32 * 26 * 26}, g_z1{b * 32 * 26 * 26};
  PinnedBuffer<float> host_losses{b};

  CudnnHandle cudnn;
  CublasHandle cublas;
  TensorDesc x_desc, c1_desc, c2_desc, pooled_desc, dense_desc;
  FilterDesc w1_desc, w2_desc;
  ConvDesc conv1, conv2;
  PoolDesc pool;
  ActivationDesc relu;

  cudnnConvolutionFwdAlgo_t conv1_forward{}, conv2_forward{};
  cudnnConvolutionBwdFilterAlgo_t conv1_backward_filter{}, conv2_backward_filter{};
  cudnnConvolutionBwdDataAlgo_t conv2_backward_data{};
  std::string algorithms;
  std::unique_ptr<DeviceBuffer<std::uint8_t>> workspace;
};

CnnTrainer::Impl::Impl(int batch_size, std::uint32_t seed, bool use_tf32, bool find, cudaStream_t work_stream)
    : batch(batch_size), b(static_cast<std::size_t>(batch_size)), tf32(use_tf32), stream(work_stream) {
  // Initial values: He uniform for weights, zeros for biases, drawn as the OpenCL trainer draws them.
  std::vector<float> initial(layout.total, 0.0F);
  std::uint32_t s = seed;
  for (int p = 0; p < kParamCount; ++p) {
    const ParamShape& shape = kShapes[static_cast<std::size_t>(p)];
    const float scale = shape.fan_in == 0 ? 0.0F : std::sqrt(6.0F / static_cast<float>(shape.fan_in));
    float* at = initial.data() + layout.offset[static_cast<std::size_t>(p)];
    for (std::size_t i = 0; i < shape.size; ++i) at[i] = scale * (2 * bench::uniform01(s) - 1);
  }
  PERFZERO_CUDA_CALL(cudaMemcpy(values.get(), initial.data(), values.bytes(), cudaMemcpyHostToDevice));
  PERFZERO_CUDA_CALL(cudaMemset(grads.get(), 0, grads.bytes()));
  PERFZERO_CUDA_CALL(cudaMemset(accum_grad.get(), 0, accum_grad.bytes()));
  PERFZERO_CUDA_CALL(cudaMemset(accum_update.get(), 0, accum_update.bytes()));

  PERFZERO_CUDNN_CALL(cudnnCreate(cudnn.address()));
  PERFZERO_CUDNN_CALL(cudnnSetStream(cudnn.get(), stream));
  PERFZERO_CUBLAS_CALL(cublasSetStream(cublas.get(), stream));
  PERFZERO_CUBLAS_CALL(cublasSetMathMode(cublas.get(), tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));

  const auto tensor = [](TensorDesc& d, int n, int c, int height, int width) {
    PERFZERO_CUDNN_CALL(cudnnCreateTensorDescriptor(d.address()));
    PERFZERO_CUDNN_CALL(cudnnSetTensor4dDescriptor(d.get(), CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, height, width));
  };
  tensor(x_desc, batch, 1, 28, 28);
  tensor(c1_desc, batch, 32, 26, 26);
  tensor(c2_desc, batch, 64, 24, 24);
  tensor(pooled_desc, batch, 64, 12, 12);
  tensor(dense_desc, batch, 128, 1, 1);
  const auto filter = [](FilterDesc& d, int out, int in) {
    PERFZERO_CUDNN_CALL(cudnnCreateFilterDescriptor(d.address()));
    PERFZERO_CUDNN_CALL(cudnnSetFilter4dDescriptor(d.get(), CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, out, in, 3, 3));
  };
  filter(w1_desc, 32, 1);
  filter(w2_desc, 64, 32);
  // 3x3, stride 1, no padding ("valid"), cross-correlation as Keras' Conv2D; fp32 accumulation.
  // CUDNN_FMA_MATH keeps cuDNN off TF32 tensor cores (its default math allows them from Ampere on).
  const cudnnMathType_t math = tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH;
  for (ConvDesc* conv : {&conv1, &conv2}) {
    PERFZERO_CUDNN_CALL(cudnnCreateConvolutionDescriptor(conv->address()));
    PERFZERO_CUDNN_CALL(
        cudnnSetConvolution2dDescriptor(conv->get(), 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    PERFZERO_CUDNN_CALL(cudnnSetConvolutionMathType(conv->get(), math));
  }
  // The shapes above, as cuDNN derives them: a mismatch is a bug here, not a slow run.
  const auto expect_output = [&](const ConvDesc& conv, const TensorDesc& in, const FilterDesc& w, int c, int side) {
    int n = 0, oc = 0, oh = 0, ow = 0;
    PERFZERO_CUDNN_CALL(cudnnGetConvolution2dForwardOutputDim(conv.get(), in.get(), w.get(), &n, &oc, &oh, &ow));
    if (n != batch || oc != c || oh != side || ow != side) {
      throw CudaError(fmt::format("cuDNN derives a {}x{}x{}x{} convolution output, not {}x{}x{}x{}", n, oc, oh, ow,
                                  batch, c, side, side));
    }
  };
  expect_output(conv1, x_desc, w1_desc, 32, 26);
  expect_output(conv2, c1_desc, w2_desc, 64, 24);
  // NaNs propagate, so a diverging step shows in the loss instead of being hidden by a ReLU or a max.
  PERFZERO_CUDNN_CALL(cudnnCreatePoolingDescriptor(pool.address()));
  PERFZERO_CUDNN_CALL(
      cudnnSetPooling2dDescriptor(pool.get(), CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
  PERFZERO_CUDNN_CALL(cudnnCreateActivationDescriptor(relu.address()));
  PERFZERO_CUDNN_CALL(cudnnSetActivationDescriptor(relu.get(), CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0));
  choose_algorithms(find);
}

// find: cudnnFind* runs every algorithm once and sorts them by the time measured (what TensorFlow's
// autotuning does); the winner can change from run to run when several are close. Otherwise
// cudnnGet*Algorithm_v7 ranks them by cuDNN's heuristics: the same choice every run on a given GPU
// and cuDNN. The two have the same signature for each direction.
void CnnTrainer::Impl::choose_algorithms(bool find) {
  cudnnHandle_t handle = cudnn.get();
  const auto rank_forward = find ? cudnnFindConvolutionForwardAlgorithm : cudnnGetConvolutionForwardAlgorithm_v7;
  const auto rank_backward_filter =
      find ? cudnnFindConvolutionBackwardFilterAlgorithm : cudnnGetConvolutionBackwardFilterAlgorithm_v7;
  const auto rank_backward_data =
      find ? cudnnFindConvolutionBackwardDataAlgorithm : cudnnGetConvolutionBackwardDataAlgorithm_v7;
  std::size_t workspace_bytes = 0;
  std::vector<std::string> chosen;
  const auto note = [&](const char* what, const char* algo, cudnnMathType_t m, std::size_t bytes) {
    chosen.push_back(fmt::format("{} {} ({})", what, algo, name_of(m)));
    workspace_bytes = std::max(workspace_bytes, bytes);
  };

  int count = 0;
  PERFZERO_CUDNN_CALL(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &count));
  std::vector<cudnnConvolutionFwdAlgoPerf_t> fwd(static_cast<std::size_t>(std::max(count, 1)));
  const auto forward = [&](const TensorDesc& in, const FilterDesc& w, const ConvDesc& conv, const TensorDesc& out,
                           const char* what) {
    int returned = 0;
    PERFZERO_CUDNN_CALL(rank_forward(handle, in.get(), w.get(), conv.get(), out.get(), static_cast<int>(fwd.size()),
                                     &returned, fwd.data()));
    const auto& best = first_usable(fwd, returned, tf32, what);
    std::size_t bytes = 0;
    PERFZERO_CUDNN_CALL(
        cudnnGetConvolutionForwardWorkspaceSize(handle, in.get(), w.get(), conv.get(), out.get(), best.algo, &bytes));
    note(what, name_of(best.algo), best.mathType, bytes);
    return best.algo;
  };
  conv1_forward = forward(x_desc, w1_desc, conv1, c1_desc, "conv1 forward");
  conv2_forward = forward(c1_desc, w2_desc, conv2, c2_desc, "conv2 forward");

  PERFZERO_CUDNN_CALL(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(handle, &count));
  std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> bwf(static_cast<std::size_t>(std::max(count, 1)));
  const auto backward_filter = [&](const TensorDesc& in, const TensorDesc& d_out, const ConvDesc& conv,
                                   const FilterDesc& w, const char* what) {
    int returned = 0;
    PERFZERO_CUDNN_CALL(rank_backward_filter(handle, in.get(), d_out.get(), conv.get(), w.get(),
                                             static_cast<int>(bwf.size()), &returned, bwf.data()));
    const auto& best = first_usable(bwf, returned, tf32, what);
    std::size_t bytes = 0;
    PERFZERO_CUDNN_CALL(cudnnGetConvolutionBackwardFilterWorkspaceSize(handle, in.get(), d_out.get(), conv.get(),
                                                                       w.get(), best.algo, &bytes));
    note(what, name_of(best.algo), best.mathType, bytes);
    return best.algo;
  };
  conv1_backward_filter = backward_filter(x_desc, c1_desc, conv1, w1_desc, "conv1 backward filter");
  conv2_backward_filter = backward_filter(c1_desc, c2_desc, conv2, w2_desc, "conv2 backward filter");

  // Only conv2 needs its input's gradient (conv1's input is the images).
  PERFZERO_CUDNN_CALL(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &count));
  std::vector<cudnnConvolutionBwdDataAlgoPerf_t> bwd(static_cast<std::size_t>(std::max(count, 1)));
  int returned = 0;
  PERFZERO_CUDNN_CALL(rank_backward_data(handle, w2_desc.get(), c2_desc.get(), conv2.get(), c1_desc.get(),
                                         static_cast<int>(bwd.size()), &returned, bwd.data()));
  const auto& best = first_usable(bwd, returned, tf32, "conv2 backward data");
  std::size_t bytes = 0;
  PERFZERO_CUDNN_CALL(cudnnGetConvolutionBackwardDataWorkspaceSize(handle, w2_desc.get(), c2_desc.get(), conv2.get(),
                                                                   c1_desc.get(), best.algo, &bytes));
  note("conv2 backward data", name_of(best.algo), best.mathType, bytes);
  conv2_backward_data = best.algo;

  algorithms = find ? "cudnnFind (measured): " : "cuDNN heuristics (cudnnGet*_v7): ";
  for (std::size_t i = 0; i < chosen.size(); ++i) algorithms += (i == 0 ? "" : ", ") + chosen[i];
  // One workspace for every convolution: they run one after another on the one stream.
  workspace = std::make_unique<DeviceBuffer<std::uint8_t>>(std::max<std::size_t>(workspace_bytes, 256));
}

void CnnTrainer::Impl::step(const float* images, const int* labels) {
  ++steps;
  // Dropout seeds: the OpenCL trainer's, so both draw the same masks at the same step.
  const std::uint32_t drop1 = 2 * steps + 1;
  const std::uint32_t drop2 = 2 * steps + 2;
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

  // Adadelta over every parameter at once, then the losses (from before the update) to the host.
  cnn::adadelta(values.get(), grads.get(), accum_grad.get(), accum_update.get(),
                static_cast<std::int64_t>(layout.total), stream);
  PERFZERO_CUDA_CALL(
      cudaMemcpyAsync(host_losses.get(), losses.get(), b * sizeof(float), cudaMemcpyDeviceToHost, stream));
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
  for (const ParamShape& s : kShapes) total += s.size;
  return static_cast<std::int64_t>(total);
}

std::string CnnTrainer::algorithms() const { return impl_->algorithms; }

std::int64_t CnnTrainer::workspace_bytes() const { return static_cast<std::int64_t>(impl_->workspace->bytes()); }

}  // namespace perfzero::cuda
