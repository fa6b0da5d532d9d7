// cuda.Training.benchmark_mnist_cnn_step: the product brief's MNIST CNN training step (batch 128,
// Adadelta) on one GPU with cuDNN and cuBLAS (cuda/mnist_cnn_trainer.hpp), as the oneDNN and OpenCL
// families do it on theirs: the same synthetic set, the same check that the loss falls, ms/step.
// Each step is timed on the GPU's timeline (CUDA events around it on the trainer's stream); it ends
// with the copy of the batch's losses to the host, which the OpenCL step also waits for.
#include <cstdint>
#include <string>
#include <vector>

#include "common/mnist_synthetic.hpp"
#include "common/training_step_report.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/gpu_timing.hpp"
#include "cuda/mnist_cnn_trainer.hpp"

namespace perfzero::cuda {

namespace {

void mnist_step(Context& ctx) {
  const int device = static_cast<int>(ctx.int_param("device"));
  if (skip_without_device(ctx, device)) return;
  const auto batch = ctx.int_param("batch");
  const MeasureOptions options = params::measure_options(ctx, bench::kTrainingStepMeasure);
  if (batch < 1 || batch > 4096 || options.min_repetitions < 10) {
    return ctx.fail("batch must be between 1 and 4096 and steps at least 10");
  }
  const bool tf32 = ctx.bool_param("tf32");
  const bool autotune = ctx.bool_param("autotune");
  const DeviceFacts facts = describe_device(device);
  record_environment(ctx, facts);
  GpuTimer timer(device, ctx.bool_param("flush_l2"));
  CnnTrainer trainer(static_cast<int>(batch), 2024, tf32, autotune, timer.stream());

  const auto per_batch = static_cast<std::size_t>(batch);
  DeviceBuffer<float> images(bench::kTrainingBatches * per_batch * 784);
  DeviceBuffer<int> labels(bench::kTrainingBatches * per_batch);
  for (int i = 0; i < bench::kTrainingBatches; ++i) {
    std::vector<float> x;
    std::vector<int> y;
    bench::synthetic_mnist_batch(batch, 100U + static_cast<std::uint32_t>(i), x, y);
    const auto at = static_cast<std::size_t>(i) * per_batch;
    PERFZERO_CUDA_CALL(cudaMemcpy(images.get() + at * 784, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
    PERFZERO_CUDA_CALL(cudaMemcpy(labels.get() + at, y.data(), y.size() * sizeof(int), cudaMemcpyHostToDevice));
  }

  // Warm-up steps train too, but only the timed steps' losses are compared. A step's loss is on the
  // host once its timed region has ended (the timer waits for it), so each step first collects the
  // one before it, and the last is collected after the loop.
  std::vector<double> losses;
  std::int64_t calls = 0;
  const auto collect = [&] {
    if (calls > options.warmups) losses.push_back(trainer.loss());
  };
  const RepetitionSeries seconds = timer.measure(ctx, options.named("training_step"), [&](cudaStream_t) {
    if (calls > 0) collect();
    const auto at = static_cast<std::size_t>(calls % bench::kTrainingBatches) * per_batch;
    trainer.step(images.get() + at * 784, labels.get() + at);
    ++calls;
  });
  collect();

  ctx.set_extra("parameters", trainer.parameters());
  ctx.set_extra("kernels", std::string("cuDNN convolutions/pooling/activations, cuBLAS dense layers, own kernels for "
                                       "bias/loss/dropout/Adadelta (benchmarks/cuda/mnist_cnn_kernels.cu)"));
  ctx.set_extra("conv_algorithms", trainer.algorithms());
  ctx.set_extra("workspace_bytes", trainer.workspace_bytes());
  ctx.set_extra("math", std::string(tf32 ? "tf32 allowed (cuDNN default math, cuBLAS TF32 tensor op math)"
                                         : "fp32 (cuDNN FMA math, cuBLAS default math)"));
  timer.record_clocks(ctx);
  bench::report_training_steps(ctx, seconds, losses, batch, options.max_time);
}

std::vector<ParamSpec> training_params() {
  std::vector<ParamSpec> specs{
      {"batch", ParamType::integer, std::int64_t{128}, "examples per step (28 x 28 x 1)"},
      {"tf32", ParamType::boolean, false,
       "let cuDNN and cuBLAS use TF32 tensor cores for the fp32 convolutions and dense layers (false: fp32, as the "
       "CPU and OpenCL steps)"},
      {"autotune", ParamType::boolean, false,
       "pick each convolution's algorithm by timing them all once before the steps (cudnnFind*, as TensorFlow "
       "autotunes; the pick can change from run to run) instead of by cuDNN's heuristics (the same every run)"}};
  for (auto& spec : common_params()) specs.push_back(std::move(spec));
  for (auto& spec : params::measure_specs(bench::kTrainingStepMeasure)) specs.push_back(std::move(spec));
  return specs;
}

const Registration kMnist{gpu_method(
    "Training", "benchmark_mnist_cnn_step",
    "MNIST CNN training step (Conv32-Conv64-MaxPool-Dropout-Dense128-Dropout-Dense10, Adadelta) with cuDNN and "
    "cuBLAS; the loss must fall",
    training_params(), mnist_step)};

}  // namespace

}  // namespace perfzero::cuda
