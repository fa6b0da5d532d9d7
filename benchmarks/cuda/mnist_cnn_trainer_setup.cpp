// Building a CnnTrainer (mnist_cnn_trainer_impl.hpp): its initial weights, drawn as the OpenCL
// trainer draws them; the cuDNN descriptors of its layers, checked against the shapes cuDNN derives;
// and the convolution algorithms, chosen by cuDNN's heuristics or by timing them.
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "common/mnist_synthetic.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cudnn_algorithms.hpp"
#include "cuda/mnist_cnn_trainer_impl.hpp"

namespace perfzero::cuda {

CnnTrainer::Impl::Layout CnnTrainer::Impl::make_layout() {
  constexpr std::size_t kAlign = 64;  // floats
  Layout l;
  for (int p = 0; p < kParamCount; ++p) {
    l.offset[static_cast<std::size_t>(p)] = l.total;
    l.total += (kShapes[static_cast<std::size_t>(p)].size + kAlign - 1) / kAlign * kAlign;
  }
  return l;
}

CnnTrainer::Impl::Impl(int batch_size, std::uint32_t seed, bool use_tf32, bool find, cudaStream_t work_stream)
    : batch(batch_size), b(static_cast<std::size_t>(batch_size)), tf32(use_tf32), stream(work_stream) {
  initialize_parameters(seed);
  PERFZERO_CUDNN_CALL(cudnnCreate(cudnn.address()));
  PERFZERO_CUDNN_CALL(cudnnSetStream(cudnn.get(), stream));
  PERFZERO_CUBLAS_CALL(cublasSetStream(cublas.get(), stream));
  PERFZERO_CUBLAS_CALL(cublasSetMathMode(cublas.get(), tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
  describe_layers();
  choose_algorithms(find);
}

// Initial values: He uniform for weights, zeros for biases, drawn as the OpenCL trainer draws them.
void CnnTrainer::Impl::initialize_parameters(std::uint32_t seed) {
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
}

// The layers as cuDNN describes them: tensors, filters, convolutions, pooling and the ReLU.
void CnnTrainer::Impl::describe_layers() {
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
}

void CnnTrainer::Impl::AlgorithmChoice::note(const char* what, const char* algo, cudnnMathType_t m, std::size_t bytes) {
  chosen.push_back(fmt::format("{} {} ({})", what, algo, name_of(m)));
  workspace_bytes = std::max(workspace_bytes, bytes);
}

// find: cudnnFind* runs every algorithm once and sorts them by the time measured (what TensorFlow's
// autotuning does); the winner can change from run to run when several are close. Otherwise
// cudnnGet*Algorithm_v7 ranks them by cuDNN's heuristics: the same choice every run on a given GPU
// and cuDNN. The two have the same signature for each direction.
void CnnTrainer::Impl::choose_algorithms(bool find) {
  AlgorithmChoice choice;
  choose_forward(find, choice);
  choose_backward_filter(find, choice);
  choose_backward_data(find, choice);
  algorithms = find ? "cudnnFind (measured): " : "cuDNN heuristics (cudnnGet*_v7): ";
  for (std::size_t i = 0; i < choice.chosen.size(); ++i) algorithms += (i == 0 ? "" : ", ") + choice.chosen[i];
  // One workspace for every convolution: they run one after another on the one stream.
  workspace = std::make_unique<DeviceBuffer<std::uint8_t>>(std::max<std::size_t>(choice.workspace_bytes, 256));
}

void CnnTrainer::Impl::choose_forward(bool find, AlgorithmChoice& choice) {
  cudnnHandle_t handle = cudnn.get();
  const auto rank_forward = find ? cudnnFindConvolutionForwardAlgorithm : cudnnGetConvolutionForwardAlgorithm_v7;
  int count = 0;
  PERFZERO_CUDNN_CALL(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &count));
  std::vector<cudnnConvolutionFwdAlgoPerf_t> fwd(static_cast<std::size_t>(std::max(count, 1)));
  const auto choose_for = [&](const TensorDesc& in, const FilterDesc& w, const ConvDesc& conv, const TensorDesc& out,
                              const char* what) {
    int returned = 0;
    PERFZERO_CUDNN_CALL(rank_forward(handle, in.get(), w.get(), conv.get(), out.get(), static_cast<int>(fwd.size()),
                                     &returned, fwd.data()));
    const auto& best = first_usable(fwd, returned, tf32, what);
    std::size_t bytes = 0;
    PERFZERO_CUDNN_CALL(
        cudnnGetConvolutionForwardWorkspaceSize(handle, in.get(), w.get(), conv.get(), out.get(), best.algo, &bytes));
    choice.note(what, name_of(best.algo), best.mathType, bytes);
    return best.algo;
  };
  conv1_forward = choose_for(x_desc, w1_desc, conv1, c1_desc, "conv1 forward");
  conv2_forward = choose_for(c1_desc, w2_desc, conv2, c2_desc, "conv2 forward");
}

void CnnTrainer::Impl::choose_backward_filter(bool find, AlgorithmChoice& choice) {
  cudnnHandle_t handle = cudnn.get();
  const auto rank_backward_filter =
      find ? cudnnFindConvolutionBackwardFilterAlgorithm : cudnnGetConvolutionBackwardFilterAlgorithm_v7;
  int count = 0;
  PERFZERO_CUDNN_CALL(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(handle, &count));
  std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> bwf(static_cast<std::size_t>(std::max(count, 1)));
  const auto choose_for = [&](const TensorDesc& in, const TensorDesc& d_out, const ConvDesc& conv, const FilterDesc& w,
                              const char* what) {
    int returned = 0;
    PERFZERO_CUDNN_CALL(rank_backward_filter(handle, in.get(), d_out.get(), conv.get(), w.get(),
                                             static_cast<int>(bwf.size()), &returned, bwf.data()));
    const auto& best = first_usable(bwf, returned, tf32, what);
    std::size_t bytes = 0;
    PERFZERO_CUDNN_CALL(cudnnGetConvolutionBackwardFilterWorkspaceSize(handle, in.get(), d_out.get(), conv.get(),
                                                                       w.get(), best.algo, &bytes));
    choice.note(what, name_of(best.algo), best.mathType, bytes);
    return best.algo;
  };
  conv1_backward_filter = choose_for(x_desc, c1_desc, conv1, w1_desc, "conv1 backward filter");
  conv2_backward_filter = choose_for(c1_desc, c2_desc, conv2, w2_desc, "conv2 backward filter");
}

// Only conv2 needs its input's gradient (conv1's input is the images).
void CnnTrainer::Impl::choose_backward_data(bool find, AlgorithmChoice& choice) {
  cudnnHandle_t handle = cudnn.get();
  const auto rank_backward_data =
      find ? cudnnFindConvolutionBackwardDataAlgorithm : cudnnGetConvolutionBackwardDataAlgorithm_v7;
  int count = 0;
  PERFZERO_CUDNN_CALL(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &count));
  std::vector<cudnnConvolutionBwdDataAlgoPerf_t> bwd(static_cast<std::size_t>(std::max(count, 1)));
  int returned = 0;
  PERFZERO_CUDNN_CALL(rank_backward_data(handle, w2_desc.get(), c2_desc.get(), conv2.get(), c1_desc.get(),
                                         static_cast<int>(bwd.size()), &returned, bwd.data()));
  const auto& best = first_usable(bwd, returned, tf32, "conv2 backward data");
  std::size_t bytes = 0;
  PERFZERO_CUDNN_CALL(cudnnGetConvolutionBackwardDataWorkspaceSize(handle, w2_desc.get(), c2_desc.get(), conv2.get(),
                                                                   c1_desc.get(), best.algo, &bytes));
  choice.note("conv2 backward data", name_of(best.algo), best.mathType, bytes);
  conv2_backward_data = best.algo;
}

}  // namespace perfzero::cuda
