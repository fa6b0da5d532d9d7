// onednn.Lstm.benchmark_imdb_lstm: the IMDB sentiment model of Keras's imdb_lstm example
// (embedding 20000 x 128, LSTM 128, dense 1 with sigmoid), inference on synthetic token sequences.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <vector>

#include "onednn/onednn_info.hpp"
#include "onednn/synthetic.hpp"
#include "perfzero/benchmark.hpp"

namespace perfzero::onednn {

namespace {

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

const params::MeasureDefaults kMeasure{
    .repetitions_description = "minimum timed passes after the warm-ups; the median counts", .repetitions = 10};

void imdb_lstm(Context& ctx) {
  const auto batch = ctx.int_param("batch");
  const auto steps = ctx.int_param("sequence_length");
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  const int threads = params::threads_from(ctx);
  constexpr std::int64_t kVocabulary = 20000;
  constexpr std::int64_t kEmbedding = 128;
  constexpr std::int64_t kHidden = 128;
  if (batch < 2 || steps < 1) return ctx.fail("batch must be at least 2 and sequence_length at least 1");
  omp_set_num_threads(threads);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  std::uint32_t seed = 99;

  std::vector<float> embedding(static_cast<std::size_t>(kVocabulary * kEmbedding));
  for (auto& v : embedding) v = 0.05F * noise(seed);
  // Token sequences; the last repeats the first, so their predictions must agree.
  std::vector<std::int32_t> tokens(static_cast<std::size_t>(batch * steps));
  for (auto& t : tokens) t = static_cast<std::int32_t>((noise(seed) + 1.0F) * 0.5F * (kVocabulary - 1));
  std::copy_n(tokens.begin(), steps, tokens.begin() + (batch - 1) * steps);

  const dnnl::memory::desc src_md({steps, batch, kEmbedding}, dt::f32, tag::tnc);
  const dnnl::memory::desc dst_md({steps, batch, kHidden}, dt::f32, tag::tnc);
  const dnnl::memory::desc w_layer_any({1, 1, kEmbedding, 4, kHidden}, dt::f32, tag::any);
  const dnnl::memory::desc w_iter_any({1, 1, kHidden, 4, kHidden}, dt::f32, tag::any);
  const dnnl::memory::desc bias_md({1, 1, 4, kHidden}, dt::f32, tag::ldgo);
#if DNNL_VERSION_MAJOR >= 3
  const dnnl::lstm_forward::primitive_desc pd(engine, dnnl::prop_kind::forward_inference,
                                              dnnl::rnn_direction::unidirectional_left2right, src_md, {}, {},
                                              w_layer_any, w_iter_any, bias_md, dst_md, {}, {});
#else
  const dnnl::lstm_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::rnn_direction::unidirectional_left2right,
                                   src_md, {}, {}, w_layer_any, w_iter_any, bias_md, dst_md, {}, {});
  const dnnl::lstm_forward::primitive_desc pd(d, engine);
#endif
  auto weights = [&](const dnnl::memory::dims& dims, const dnnl::memory::desc& wanted) {
    dnnl::memory plain({dims, dt::f32, tag::ldigo}, engine);
    auto* p = static_cast<float*>(plain.get_data_handle());
    const float scale = std::sqrt(1.0F / static_cast<float>(kHidden));
    for (std::size_t i = 0; i < plain.get_desc().get_size() / sizeof(float); ++i) p[i] = scale * noise(seed);
    dnnl::memory out(wanted, engine);
    dnnl::reorder(plain, out).execute(stream, plain, out);
    return out;
  };
  dnnl::memory w_layer = weights({1, 1, kEmbedding, 4, kHidden}, pd.weights_layer_desc());
  dnnl::memory w_iter = weights({1, 1, kHidden, 4, kHidden}, pd.weights_iter_desc());
  dnnl::memory bias(bias_md, engine);
  std::fill_n(static_cast<float*>(bias.get_data_handle()), 4 * kHidden, 0.0F);
  dnnl::memory src(src_md, engine);
  dnnl::memory dst(dst_md, engine);
  dnnl::memory workspace(pd.workspace_desc(), engine);
  std::vector<float> dense(static_cast<std::size_t>(kHidden));
  for (auto& v : dense) v = 0.1F * noise(seed);
  stream.wait();

  std::vector<double> predictions(static_cast<std::size_t>(batch));
  auto run = [&] {
    // Embedding lookup into the time-major input, the LSTM, then dense + sigmoid on the last state.
    auto* in = static_cast<float*>(src.get_data_handle());
    for (std::int64_t t = 0; t < steps; ++t) {
      for (std::int64_t b = 0; b < batch; ++b) {
        const auto token = tokens[static_cast<std::size_t>(b * steps + t)];
        std::copy_n(embedding.begin() + token * kEmbedding, kEmbedding, in + (t * batch + b) * kEmbedding);
      }
    }
    dnnl::lstm_forward(pd).execute(stream, {{DNNL_ARG_SRC_LAYER, src},
                                            {DNNL_ARG_WEIGHTS_LAYER, w_layer},
                                            {DNNL_ARG_WEIGHTS_ITER, w_iter},
                                            {DNNL_ARG_BIAS, bias},
                                            {DNNL_ARG_DST_LAYER, dst},
                                            {DNNL_ARG_WORKSPACE, workspace}});
    stream.wait();
    const auto* h = static_cast<const float*>(dst.get_data_handle()) + (steps - 1) * batch * kHidden;
    for (std::int64_t b = 0; b < batch; ++b) {
      double z = 0;
      for (std::int64_t i = 0; i < kHidden; ++i)
        z += static_cast<double>(h[b * kHidden + i]) * dense[static_cast<std::size_t>(i)];
      predictions[static_cast<std::size_t>(b)] = 1.0 / (1.0 + std::exp(-z));
    }
  };
  const RepetitionSeries seconds = measure(ctx, options.named("inference"), run);
  for (double p : predictions) {
    if (!(p > 0.0 && p < 1.0)) return ctx.fail("a prediction is outside (0, 1): " + std::to_string(p));
  }
  if (std::fabs(predictions.front() - predictions.back()) > 1e-5) {
    return ctx.fail("the same sequence got two predictions: " + std::to_string(predictions.front()) + " and " +
                    std::to_string(predictions.back()));
  }
  const double median = seconds.median();
  ctx.report("sequences_per_second", static_cast<double>(batch) / median, "sequences/s");
  ctx.report("ms_per_batch", median * 1e3, "ms");
  ctx.set_extra("batch", batch);
  ctx.set_extra("sequence_length", steps);
  ctx.set_extra("threads", std::int64_t{threads});
  ctx.set_framework(framework_info());
}

std::vector<ParamSpec> lstm_params() {
  std::vector<ParamSpec> specs{
      {"batch", ParamType::integer, std::int64_t{32}, "sequences per pass"},
      {"sequence_length", ParamType::integer, std::int64_t{80}, "tokens per sequence (Keras example: maxlen 80)"},
      params::threads()};
  for (auto& spec : params::measure_specs(kMeasure)) specs.push_back(std::move(spec));
  return specs;
}

const Registration kLstm{
    MethodInfo{"onednn", "Lstm", "benchmark_imdb_lstm",
               "IMDB sentiment LSTM inference (embedding 20000x128, LSTM 128, dense sigmoid), oneDNN fp32",
               lstm_params(), imdb_lstm}};

}  // namespace

}  // namespace perfzero::onednn
