// onednn.Training.benchmark_mnist_cnn_step: the product brief's MNIST CNN, one training step.
#include <omp.h>

#include <string>
#include <vector>

#include "common/mnist_synthetic.hpp"
#include "common/training_step_report.hpp"
#include "onednn/mnist_training.hpp"
#include "onednn/onednn_info.hpp"
#include "perfzero/benchmark.hpp"

namespace perfzero::onednn {

namespace {

void mnist_step(Context& ctx) {
  const auto batch = ctx.int_param("batch");
  const MeasureOptions options = params::measure_options(ctx, bench::kTrainingStepMeasure);
  const int threads = params::threads_from(ctx);
  if (batch < 1 || options.min_repetitions < 10) return ctx.fail("batch must be at least 1 and steps at least 10");
  omp_set_num_threads(threads);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  MnistTrainer trainer(engine, batch, 2024);
  // A fixed labelled set of 8 batches, cycled: the loss must fall as the network learns it.
  std::vector<std::vector<float>> images(bench::kTrainingBatches);
  std::vector<std::vector<int>> labels(bench::kTrainingBatches);
  for (int b = 0; b < bench::kTrainingBatches; ++b)
    bench::synthetic_mnist_batch(batch, 100U + static_cast<std::uint32_t>(b), images[b], labels[b]);
  // Warm-up steps (JIT, first touch) train too, but only the timed steps' losses are compared.
  std::vector<double> losses;
  std::int64_t calls = 0;
  const RepetitionSeries seconds = measure(ctx, options.named("training_step"), [&] {
    const auto i = static_cast<std::size_t>(calls % bench::kTrainingBatches);
    const double loss = trainer.step(images[i], labels[i]);
    if (calls++ >= options.warmups) losses.push_back(loss);
  });
  ctx.set_extra("threads", std::int64_t{threads});
  ctx.set_framework(framework_info());
  bench::report_training_steps(ctx, seconds, losses, batch, options.max_time);
}

std::vector<ParamSpec> training_params() {
  std::vector<ParamSpec> specs{{"batch", ParamType::integer, std::int64_t{128}, "examples per step (28 x 28 x 1)"},
                               params::threads()};
  for (auto& spec : params::measure_specs(bench::kTrainingStepMeasure)) specs.push_back(std::move(spec));
  return specs;
}

const Registration kMnist{MethodInfo{
    "onednn", "Training", "benchmark_mnist_cnn_step",
    "MNIST CNN training step (Conv32-Conv64-MaxPool-Dropout-Dense128-Dropout-Dense10, Adadelta); the loss must fall",
    training_params(), mnist_step}};

}  // namespace

}  // namespace perfzero::onednn
