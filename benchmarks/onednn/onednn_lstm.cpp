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

constexpr std::int64_t kVocabulary = 20000;
constexpr std::int64_t kEmbedding = 128;
constexpr std::int64_t kHidden = 128;

dnnl::lstm_forward::primitive_desc lstm_primitive(const dnnl::engine& engine, std::int64_t batch, std::int64_t steps) {
  const dnnl::memory::desc src_md({steps, batch, kEmbedding}, dt::f32, tag::tnc);
  const dnnl::memory::desc dst_md({steps, batch, kHidden}, dt::f32, tag::tnc);
  const dnnl::memory::desc w_layer_any({1, 1, kEmbedding, 4, kHidden}, dt::f32, tag::any);
  const dnnl::memory::desc w_iter_any({1, 1, kHidden, 4, kHidden}, dt::f32, tag::any);
  const dnnl::memory::desc bias_md({1, 1, 4, kHidden}, dt::f32, tag::ldgo);
#if DNNL_VERSION_MAJOR >= 3
  return {engine,
          dnnl::prop_kind::forward_inference,
          dnnl::rnn_direction::unidirectional_left2right,
          src_md,
          {},
          {},
          w_layer_any,
          w_iter_any,
          bias_md,
          dst_md,
          {},
          {}};
#else
  const dnnl::lstm_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::rnn_direction::unidirectional_left2right,
                                   src_md, {}, {}, w_layer_any, w_iter_any, bias_md, dst_md, {}, {});
  return {d, engine};
#endif
}

// The model with synthetic weights and token sequences; the last sequence repeats the first, so their
// predictions must agree.
class ImdbLstm {
 public:
  ImdbLstm(std::int64_t batch, std::int64_t steps)
      : batch_(batch), steps_(steps), stream_(engine_), pd_(lstm_primitive(engine_, batch, steps)) {
    embedding_.resize(static_cast<std::size_t>(kVocabulary * kEmbedding));
    for (auto& v : embedding_) v = 0.05F * noise(seed_);
    tokens_.resize(static_cast<std::size_t>(batch * steps));
    for (auto& t : tokens_) t = static_cast<std::int32_t>((noise(seed_) + 1.0F) * 0.5F * (kVocabulary - 1));
    std::copy_n(tokens_.begin(), steps, tokens_.begin() + (batch - 1) * steps);
    w_layer_ = weights({1, 1, kEmbedding, 4, kHidden}, pd_.weights_layer_desc());
    w_iter_ = weights({1, 1, kHidden, 4, kHidden}, pd_.weights_iter_desc());
    bias_ = dnnl::memory(pd_.bias_desc(), engine_);
    std::fill_n(static_cast<float*>(bias_.get_data_handle()), 4 * kHidden, 0.0F);
    src_ = dnnl::memory(pd_.src_layer_desc(), engine_);
    dst_ = dnnl::memory(pd_.dst_layer_desc(), engine_);
    workspace_ = dnnl::memory(pd_.workspace_desc(), engine_);
    dense_.resize(static_cast<std::size_t>(kHidden));
    for (auto& v : dense_) v = 0.1F * noise(seed_);
    predictions_.resize(static_cast<std::size_t>(batch));
    stream_.wait();
  }

  // Embedding lookup into the time-major input, the LSTM, then dense + sigmoid on the last state.
  void run() {
    auto* in = static_cast<float*>(src_.get_data_handle());
    for (std::int64_t t = 0; t < steps_; ++t) {
      for (std::int64_t b = 0; b < batch_; ++b) {
        const auto token = tokens_[static_cast<std::size_t>(b * steps_ + t)];
        std::copy_n(embedding_.begin() + token * kEmbedding, kEmbedding, in + (t * batch_ + b) * kEmbedding);
      }
    }
    dnnl::lstm_forward(pd_).execute(stream_, {{DNNL_ARG_SRC_LAYER, src_},
                                              {DNNL_ARG_WEIGHTS_LAYER, w_layer_},
                                              {DNNL_ARG_WEIGHTS_ITER, w_iter_},
                                              {DNNL_ARG_BIAS, bias_},
                                              {DNNL_ARG_DST_LAYER, dst_},
                                              {DNNL_ARG_WORKSPACE, workspace_}});
    stream_.wait();
    const auto* h = static_cast<const float*>(dst_.get_data_handle()) + (steps_ - 1) * batch_ * kHidden;
    for (std::int64_t b = 0; b < batch_; ++b) {
      double z = 0;
      for (std::int64_t i = 0; i < kHidden; ++i) {
        z += static_cast<double>(h[b * kHidden + i]) * dense_[static_cast<std::size_t>(i)];
      }
      predictions_[static_cast<std::size_t>(b)] = 1.0 / (1.0 + std::exp(-z));
    }
  }

  // Empty when the predictions are sane; else what is wrong.
  std::string check() const {
    for (double p : predictions_) {
      if (!(p > 0.0 && p < 1.0)) return "a prediction is outside (0, 1): " + std::to_string(p);
    }
    if (std::fabs(predictions_.front() - predictions_.back()) > 1e-5) {
      return "the same sequence got two predictions: " + std::to_string(predictions_.front()) + " and " +
             std::to_string(predictions_.back());
    }
    return "";
  }

 private:
  dnnl::memory weights(const dnnl::memory::dims& dims, const dnnl::memory::desc& wanted) {
    dnnl::memory plain({dims, dt::f32, tag::ldigo}, engine_);
    auto* p = static_cast<float*>(plain.get_data_handle());
    const float scale = std::sqrt(1.0F / static_cast<float>(kHidden));
    for (std::size_t i = 0; i < plain.get_desc().get_size() / sizeof(float); ++i) p[i] = scale * noise(seed_);
    dnnl::memory out(wanted, engine_);
    dnnl::reorder(plain, out).execute(stream_, plain, out);
    return out;
  }

  std::int64_t batch_;
  std::int64_t steps_;
  std::uint32_t seed_ = 99;
  dnnl::engine engine_{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream_;
  dnnl::lstm_forward::primitive_desc pd_;
  std::vector<float> embedding_;
  std::vector<std::int32_t> tokens_;
  std::vector<float> dense_;
  std::vector<double> predictions_;
  dnnl::memory w_layer_, w_iter_, bias_, src_, dst_, workspace_;
};

void imdb_lstm(Context& ctx) {
  const auto batch = ctx.int_param("batch");
  const auto steps = ctx.int_param("sequence_length");
  const MeasureOptions options = params::measure_options(ctx, kMeasure);
  const int threads = params::threads_from(ctx);
  if (batch < 2 || steps < 1) return ctx.fail("batch must be at least 2 and sequence_length at least 1");
  omp_set_num_threads(threads);
  ImdbLstm model(batch, steps);
  const RepetitionSeries seconds = measure(ctx, options.named("inference"), [&] { model.run(); });
  if (const std::string wrong = model.check(); !wrong.empty()) return ctx.fail(wrong);
  const double median = seconds.median();
  ctx.report("sequences_per_second", static_cast<double>(batch) / median, "sequences/s",
             perfzero::Direction::higher_is_better);
  ctx.report("ms_per_batch", median * 1e3, "ms", perfzero::Direction::lower_is_better);
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
