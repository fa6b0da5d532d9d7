// opencl.Training.benchmark_mnist_cnn_step: the product brief's MNIST CNN training step (batch 128,
// Adadelta) on an OpenCL device, as onednn.Training.benchmark_mnist_cnn_step does it on oneDNN: the
// same synthetic set, the same check that the loss falls, ms/step.
#include <string>
#include <vector>

#include "common/mnist_synthetic.hpp"
#include "common/training_step_report.hpp"
#include "opencl/device_runner.hpp"
#include "opencl/mnist_trainer.hpp"

namespace perfzero::opencl {

namespace {

void mnist_step(Context& ctx, Session& s) {
  const auto batch = ctx.int_param("batch");
  const MeasureOptions options = params::measure_options(ctx, bench::kTrainingStepMeasure);
  if (batch < 1 || batch > 4096 || options.min_repetitions < 10) {
    return ctx.fail("batch must be between 1 and 4096 and steps at least 10");
  }
  MnistTrainer trainer(s, static_cast<int>(batch), 2024);
  std::vector<Buffer> images;
  std::vector<Buffer> labels;
  for (int b = 0; b < bench::kTrainingBatches; ++b) {
    std::vector<float> x;
    std::vector<int> y;
    bench::synthetic_mnist_batch(batch, 100U + static_cast<std::uint32_t>(b), x, y);
    images.push_back(s.buffer(x.size() * sizeof(float), CL_MEM_READ_ONLY));
    labels.push_back(s.buffer(y.size() * sizeof(int), CL_MEM_READ_ONLY));
    s.write(images.back(), x.data(), x.size() * sizeof(float));
    s.write(labels.back(), y.data(), y.size() * sizeof(int));
  }
  // Warm-up steps train too, but only the timed steps' losses are compared.
  std::vector<double> losses;
  std::int64_t calls = 0;
  const RepetitionSeries seconds = measure(ctx, options.named("training_step"), [&] {
    const auto i = static_cast<std::size_t>(calls % bench::kTrainingBatches);
    const double loss = trainer.step(images[i], labels[i]);
    if (calls++ >= options.warmups) losses.push_back(loss);
  });
  ctx.set_extra("parameters", trainer.parameters());
  ctx.set_extra("kernels", std::string("own OpenCL C kernels (benchmarks/opencl/mnist_kernels.cpp)"));
  bench::report_training_steps(ctx, seconds, losses, batch, options.max_time);
}

std::vector<ParamSpec> training_params() {
  std::vector<ParamSpec> own{{"batch", ParamType::integer, std::int64_t{128}, "examples per step (28 x 28 x 1)"}};
  for (auto& spec : params::measure_specs(bench::kTrainingStepMeasure)) own.push_back(std::move(spec));
  return with_device_params(std::move(own));
}

const Registration kMnist{MethodInfo{
    "opencl", "Training", "benchmark_mnist_cnn_step",
    "MNIST CNN training step (Conv32-Conv64-MaxPool-Dropout-Dense128-Dropout-Dense10, Adadelta); the loss must fall",
    training_params(), [](Context& ctx) { run_on_selected_devices(ctx, mnist_step); }}};

}  // namespace

}  // namespace perfzero::opencl
