// onednn.Training.benchmark_mnist_cnn_step: the product brief's MNIST CNN, one training step.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>
#include <vector>

#include "common/threads.hpp"
#include "onednn/mnist_training.hpp"
#include "onednn/onednn_info.hpp"
#include "perfzero/benchmark.hpp"

namespace perfzero::onednn {

namespace {

void mnist_step(Context& ctx) {
  const auto batch = ctx.int_param("batch");
  const auto steps = ctx.int_param("steps");
  const int threads = bench::threads_param(ctx);
  if (batch < 1 || steps < 10) return ctx.fail("batch must be at least 1 and steps at least 10");
  omp_set_num_threads(threads);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  MnistTrainer trainer(engine, batch, 2024);
  // A fixed labelled set of 8 batches, cycled: the loss must fall as the network learns it.
  constexpr int kBatches = 8;
  std::vector<std::vector<float>> images(kBatches);
  std::vector<std::vector<int>> labels(kBatches);
  for (int b = 0; b < kBatches; ++b)
    synthetic_mnist_batch(batch, 100U + static_cast<std::uint32_t>(b), images[b], labels[b]);
  trainer.step(images[0], labels[0]);  // warm-up (JIT, first touch); its loss is the starting point too
  std::vector<double> seconds;
  std::vector<double> losses;
  for (std::int64_t s = 0; s < steps; ++s) {
    const auto i = static_cast<std::size_t>((s + 1) % kBatches);
    const auto start = std::chrono::steady_clock::now();
    losses.push_back(trainer.step(images[i], labels[i]));
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  const auto mean = [](auto first, auto last) {
    return std::accumulate(first, last, 0.0) / static_cast<double>(last - first);
  };
  const double first_loss = mean(losses.begin(), losses.begin() + 5);
  const double last_loss = mean(losses.end() - 5, losses.end());
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  ctx.report("ms_per_step", median * 1e3, "ms");
  ctx.report("examples_per_second", static_cast<double>(batch) / median, "examples/s");
  ctx.report("first_loss", first_loss, "1");
  ctx.report("last_loss", last_loss, "1");
  ctx.set_extra("batch", batch);
  ctx.set_extra("steps", steps);
  ctx.set_extra("threads", std::int64_t{threads});
  ctx.set_extra("optimizer", "Adadelta (rho 0.95, epsilon 1e-7, learning rate 1.0)");
  ctx.set_framework(framework_info());
  if (!(last_loss < 0.8 * first_loss)) {
    ctx.fail("the loss did not fall: " + std::to_string(first_loss) + " over the first 5 steps, " +
             std::to_string(last_loss) + " over the last 5");
  }
}

const Registration kMnist{MethodInfo{
    "onednn",
    "Training",
    "benchmark_mnist_cnn_step",
    "MNIST CNN training step (Conv32-Conv64-MaxPool-Dropout-Dense128-Dropout-Dense10, Adadelta); the loss must fall",
    {{"batch", ParamType::integer, std::int64_t{128}, "examples per step (28 x 28 x 1)"},
     {"steps", ParamType::integer, std::int64_t{30}, "timed steps over a fixed synthetic set; the median counts"},
     {"threads", ParamType::integer, std::int64_t{0}, "OpenMP threads; 0: all the CPUs allowed"}},
    mnist_step}};

}  // namespace

}  // namespace perfzero::onednn
