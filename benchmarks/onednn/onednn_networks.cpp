// onednn.Networks.*: forward passes (inference) of PerfZero's headline CNNs with synthetic weights.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "onednn/network.hpp"
#include "onednn/onednn_info.hpp"
#include "onednn/synthetic.hpp"
#include "perfzero/benchmark.hpp"

namespace perfzero::onednn {

namespace {

const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed passes after the warm-ups; the median counts", .repetitions = 5};

void forward(Context& ctx, const std::string& name) {
  const auto batch = ctx.int_param("batch");
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  const int threads = params::threads_from(ctx);
  if (batch < 1) return ctx.fail("batch must be at least 1");
  omp_set_num_threads(threads);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const auto net = build_network(name, engine, batch);

  // Synthetic images; the last repeats the first, so their outputs must agree (a check that each
  // image is computed on its own data, whatever blocking oneDNN chose).
  const std::int64_t per_image = net->input_size() / batch;
  std::vector<float> input(static_cast<std::size_t>(net->input_size()));
  std::uint32_t state = 12345;
  for (auto& v : input) v = noise(state);
  if (batch > 1) {
    std::copy_n(input.begin(), per_image, input.begin() + (batch - 1) * per_image);
  }
  net->set_input(input);
  // The warm-ups cover the JIT kernels and the first touch of every buffer.
  const RepetitionSeries seconds = measure(ctx, options.named("forward"), [&] { net->run(stream); });
  const auto out = net->output(stream);
  const auto classes = static_cast<std::int64_t>(out.size()) / batch;
  double lo = out[0];
  double hi = out[0];
  for (float v : out) {
    if (!std::isfinite(v)) return ctx.fail("the output holds a non-finite value");
    lo = std::min(lo, static_cast<double>(v));
    hi = std::max(hi, static_cast<double>(v));
  }
  if (hi - lo <= 0) return ctx.fail("every output is the same value: the network computed nothing");
  if (batch > 1) {
    for (std::int64_t c = 0; c < classes; ++c) {
      const double a = out[static_cast<std::size_t>(c)];
      const double b = out[static_cast<std::size_t>((batch - 1) * classes + c)];
      if (std::fabs(a - b) > 1e-3 * (std::fabs(a) + std::fabs(b)) + 1e-4 * (hi - lo)) {
        return ctx.fail("images 0 and " + std::to_string(batch - 1) +
                        " are the same but their outputs differ at class " + std::to_string(c) + ": " +
                        std::to_string(a) + " vs " + std::to_string(b));
      }
    }
  }
  const double median = seconds.median();
  ctx.report("images_per_second", static_cast<double>(batch) / median, "images/s",
             perfzero::Direction::higher_is_better);
  ctx.report("ms_per_batch", median * 1e3, "ms", perfzero::Direction::lower_is_better);
  ctx.report("gflops", net->flops() / median / 1e9, "GFLOP/s", perfzero::Direction::higher_is_better);
  ctx.set_extra("batch", batch);
  ctx.set_extra("threads", std::int64_t{threads});
  ctx.set_extra("gflop_per_image", net->flops() / static_cast<double>(batch) / 1e9);
  ctx.set_extra("parameters", net->parameters());
  ctx.set_extra("isa", dispatched_isa());
  ctx.set_framework(framework_info());
}

std::vector<ParamSpec> params() {
  std::vector<ParamSpec> specs{
      {"batch", ParamType::integer, std::int64_t{32}, "images per forward pass (224 x 224 x 3)"}, params::threads()};
  for (auto& spec : params::measure_specs(kMeasure)) specs.push_back(std::move(spec));
  return specs;
}

void resnet50(Context& c) { forward(c, "resnet50"); }
void vgg16(Context& c) { forward(c, "vgg16"); }
void vgg19(Context& c) { forward(c, "vgg19"); }
void mobilenet_v1(Context& c) { forward(c, "mobilenet_v1"); }

MethodInfo network(std::string method, const std::string& what, MethodFunction fn) {
  return {"onednn",          "Networks",
          std::move(method), what + " forward pass (inference, synthetic weights, batch norm folded), oneDNN fp32",
          params(),          fn};
}

const Registration kNetworks[] = {
    Registration{network("benchmark_resnet50", "ResNet-50 v1.5", resnet50)},
    Registration{network("benchmark_vgg16", "VGG16", vgg16)},
    Registration{network("benchmark_vgg19", "VGG19", vgg19)},
    Registration{network("benchmark_mobilenet_v1", "MobileNet v1 (1.0, 224)", mobilenet_v1)},
};

}  // namespace

}  // namespace perfzero::onednn
