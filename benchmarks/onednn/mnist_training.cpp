#include "onednn/mnist_training.hpp"

#include "onednn/synthetic.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <unordered_map>

namespace perfzero::onednn {

namespace {

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;
using Args = std::unordered_map<int, dnnl::memory>;

float* data(const dnnl::memory& m) { return static_cast<float*>(m.get_data_handle()); }
std::size_t count(const dnnl::memory& m) { return m.get_desc().get_size() / sizeof(float); }

// Keras' Adadelta (rho 0.95, epsilon 1e-7, learning rate 1.0), as the brief's run used.
struct Parameter {
  dnnl::memory value, grad;
  std::vector<float> accum_grad, accum_update;
  void init(std::size_t n) {
    accum_grad.assign(n, 0.0F);
    accum_update.assign(n, 0.0F);
  }
  void update() {
    constexpr float kRho = 0.95F;
    constexpr float kEps = 1e-7F;
    float* w = data(value);
    const float* g = data(grad);
    for (std::size_t i = 0; i < accum_grad.size(); ++i) {
      accum_grad[i] = kRho * accum_grad[i] + (1 - kRho) * g[i] * g[i];
      const float delta = std::sqrt(accum_update[i] + kEps) / std::sqrt(accum_grad[i] + kEps) * g[i];
      accum_update[i] = kRho * accum_update[i] + (1 - kRho) * delta * delta;
      w[i] -= delta;
    }
  }
};

}  // namespace

struct MnistTrainer::Impl {
  dnnl::engine engine;
  dnnl::stream stream;
  std::int64_t batch;
  std::uint32_t dropout_state;
  std::vector<std::pair<dnnl::primitive, Args>> forward, backward;
  dnnl::memory input, logits, d_logits;
  dnnl::memory drop1_out, drop1_in, d_drop1_out, d_drop1_in;
  dnnl::memory drop2_out, drop2_in, d_drop2_out, d_drop2_in;
  std::vector<float> mask1, mask2;
  std::deque<Parameter> params;  // a deque: layers keep references to their parameters while more are added

  dnnl::memory mem(const dnnl::memory::dims& dims, tag t) { return dnnl::memory({dims, dt::f32, t}, engine); }

  Parameter& param(const dnnl::memory::dims& dims, tag t, std::int64_t fan_in, std::uint32_t& seed, bool bias) {
    Parameter& p = params.emplace_back();
    p.value = mem(dims, t);
    p.grad = mem(dims, t);
    const float scale = bias ? 0.0F : std::sqrt(6.0F / static_cast<float>(fan_in));  // He uniform
    for (std::size_t i = 0; i < count(p.value); ++i) data(p.value)[i] = scale * (2 * uniform01(seed) - 1);
    p.init(count(p.value));
    return p;
  }

  // conv (+ relu) forward-training and backward: returns the relu output; sets d_in when asked.
  // d_src_target: where the gradient of `src` goes (the previous layer's), or null for the input.
  dnnl::memory conv_relu(const dnnl::memory& src, std::int64_t out_c, const dnnl::memory* d_src_target,
                         std::uint32_t& seed, dnnl::memory& d_relu_out_holder) {
    const auto in = src.get_desc().dims();
    const std::int64_t oh = in[2] - 2;
    const std::int64_t ow = in[3] - 2;
    Parameter& w = param({out_c, in[1], 3, 3}, tag::oihw, in[1] * 9, seed, false);
    Parameter& b = param({out_c}, tag::x, 1, seed, true);
    const auto src_md = src.get_desc();
    const dnnl::memory::desc dst_md({in[0], out_c, oh, ow}, dt::f32, tag::nchw);
    const dnnl::convolution_forward::desc fd(dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                                             src_md, w.value.get_desc(), b.value.get_desc(), dst_md, {1, 1}, {0, 0},
                                             {0, 0});
    const dnnl::convolution_forward::primitive_desc fpd(fd, engine);
    dnnl::memory conv_out(dst_md, engine);
    forward.push_back(
        {dnnl::convolution_forward(fpd),
         {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, w.value}, {DNNL_ARG_BIAS, b.value}, {DNNL_ARG_DST, conv_out}}});
    const dnnl::eltwise_forward::desc rfd(dnnl::prop_kind::forward_training, dnnl::algorithm::eltwise_relu, dst_md,
                                          0.0F);
    const dnnl::eltwise_forward::primitive_desc rfpd(rfd, engine);
    dnnl::memory relu_out(dst_md, engine);
    forward.push_back({dnnl::eltwise_forward(rfpd), {{DNNL_ARG_SRC, conv_out}, {DNNL_ARG_DST, relu_out}}});

    // Backward, in reverse order of use: relu, then weights, then data.
    dnnl::memory d_relu_out(dst_md, engine);
    d_relu_out_holder = d_relu_out;
    dnnl::memory d_conv_out(dst_md, engine);
    const dnnl::eltwise_backward::desc rbd(dnnl::algorithm::eltwise_relu, dst_md, dst_md, 0.0F);
    std::vector<std::pair<dnnl::primitive, Args>> mine;
    mine.push_back({dnnl::eltwise_backward(dnnl::eltwise_backward::primitive_desc(rbd, engine, rfpd)),
                    {{DNNL_ARG_SRC, conv_out}, {DNNL_ARG_DIFF_DST, d_relu_out}, {DNNL_ARG_DIFF_SRC, d_conv_out}}});
    const dnnl::convolution_backward_weights::desc wbd(dnnl::algorithm::convolution_direct, src_md, w.grad.get_desc(),
                                                       b.grad.get_desc(), dst_md, {1, 1}, {0, 0}, {0, 0});
    mine.push_back(
        {dnnl::convolution_backward_weights(dnnl::convolution_backward_weights::primitive_desc(wbd, engine, fpd)),
         {{DNNL_ARG_SRC, src},
          {DNNL_ARG_DIFF_DST, d_conv_out},
          {DNNL_ARG_DIFF_WEIGHTS, w.grad},
          {DNNL_ARG_DIFF_BIAS, b.grad}}});
    if (d_src_target != nullptr) {
      const dnnl::convolution_backward_data::desc dbd(dnnl::algorithm::convolution_direct, src_md, w.value.get_desc(),
                                                      dst_md, {1, 1}, {0, 0}, {0, 0});
      mine.push_back(
          {dnnl::convolution_backward_data(dnnl::convolution_backward_data::primitive_desc(dbd, engine, fpd)),
           {{DNNL_ARG_DIFF_DST, d_conv_out}, {DNNL_ARG_WEIGHTS, w.value}, {DNNL_ARG_DIFF_SRC, *d_src_target}}});
    }
    // Layers are built front to back; their backward steps run back to front.
    backward.insert(backward.begin(), mine.begin(), mine.end());
    return relu_out;
  }

  // Fully connected (+ optional relu): forward-training and backward (data and weights).
  dnnl::memory dense(const dnnl::memory& src, std::int64_t outputs, bool relu, dnnl::memory& d_src,
                     dnnl::memory& d_out_holder, std::uint32_t& seed) {
    const auto src_md = src.get_desc();
    const auto in = src_md.dims();
    dnnl::memory::dims wdims{outputs};
    std::int64_t fan_in = 1;
    for (std::size_t i = 1; i < in.size(); ++i) {
      wdims.push_back(in[i]);
      fan_in *= in[i];
    }
    Parameter& w = param(wdims, wdims.size() == 4 ? tag::oihw : tag::oi, fan_in, seed, false);
    Parameter& b = param({outputs}, tag::x, 1, seed, true);
    const dnnl::memory::desc dst_md({in[0], outputs}, dt::f32, tag::nc);
    const dnnl::inner_product_forward::desc fd(dnnl::prop_kind::forward_training, src_md, w.value.get_desc(),
                                               b.value.get_desc(), dst_md);
    const dnnl::inner_product_forward::primitive_desc fpd(fd, engine);
    dnnl::memory fc_out(dst_md, engine);
    forward.push_back(
        {dnnl::inner_product_forward(fpd),
         {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, w.value}, {DNNL_ARG_BIAS, b.value}, {DNNL_ARG_DST, fc_out}}});
    dnnl::memory out = fc_out;
    dnnl::memory d_fc_out(dst_md, engine);
    std::vector<std::pair<dnnl::primitive, Args>> mine;
    if (relu) {
      const dnnl::eltwise_forward::desc rfd(dnnl::prop_kind::forward_training, dnnl::algorithm::eltwise_relu, dst_md,
                                            0.0F);
      const dnnl::eltwise_forward::primitive_desc rfpd(rfd, engine);
      out = dnnl::memory(dst_md, engine);
      forward.push_back({dnnl::eltwise_forward(rfpd), {{DNNL_ARG_SRC, fc_out}, {DNNL_ARG_DST, out}}});
      d_out_holder = dnnl::memory(dst_md, engine);
      const dnnl::eltwise_backward::desc rbd(dnnl::algorithm::eltwise_relu, dst_md, dst_md, 0.0F);
      mine.push_back({dnnl::eltwise_backward(dnnl::eltwise_backward::primitive_desc(rbd, engine, rfpd)),
                      {{DNNL_ARG_SRC, fc_out}, {DNNL_ARG_DIFF_DST, d_out_holder}, {DNNL_ARG_DIFF_SRC, d_fc_out}}});
    } else {
      d_out_holder = d_fc_out;
    }
    const dnnl::inner_product_backward_weights::desc wbd(src_md, w.grad.get_desc(), b.grad.get_desc(), dst_md);
    mine.push_back(
        {dnnl::inner_product_backward_weights(dnnl::inner_product_backward_weights::primitive_desc(wbd, engine, fpd)),
         {{DNNL_ARG_SRC, src},
          {DNNL_ARG_DIFF_DST, d_fc_out},
          {DNNL_ARG_DIFF_WEIGHTS, w.grad},
          {DNNL_ARG_DIFF_BIAS, b.grad}}});
    d_src = dnnl::memory(src_md, engine);
    const dnnl::inner_product_backward_data::desc dbd(src_md, w.value.get_desc(), dst_md);
    mine.push_back(
        {dnnl::inner_product_backward_data(dnnl::inner_product_backward_data::primitive_desc(dbd, engine, fpd)),
         {{DNNL_ARG_DIFF_DST, d_fc_out}, {DNNL_ARG_WEIGHTS, w.value}, {DNNL_ARG_DIFF_SRC, d_src}}});
    backward.insert(backward.begin(), mine.begin(), mine.end());
    return out;
  }
};

MnistTrainer::MnistTrainer(const dnnl::engine& engine, std::int64_t batch, std::uint32_t seed) : impl_(new Impl) {
  Impl& m = *impl_;
  m.engine = engine;
  m.stream = dnnl::stream(engine);
  m.batch = batch;
  m.dropout_state = seed * 7 + 1;
  std::uint32_t wseed = seed;
  m.input = m.mem({batch, 1, 28, 28}, tag::nchw);
  dnnl::memory d_relu1;
  dnnl::memory d_relu2;
  const dnnl::memory relu1 = m.conv_relu(m.input, 32, nullptr, wseed, d_relu1);
  // conv2's backward-data writes the gradient of relu1's output where relu1's backward reads it.
  const dnnl::memory relu2 = m.conv_relu(relu1, 64, &d_relu1, wseed, d_relu2);

  // 2x2 max pooling with its workspace for backward.
  const auto relu2_md = relu2.get_desc();
  const dnnl::memory::desc pool_md({batch, 64, 12, 12}, dt::f32, tag::nchw);
  const dnnl::pooling_forward::desc pfd(dnnl::prop_kind::forward_training, dnnl::algorithm::pooling_max, relu2_md,
                                        pool_md, {2, 2}, {2, 2}, {0, 0}, {0, 0});
  const dnnl::pooling_forward::primitive_desc ppd(pfd, engine);
  dnnl::memory workspace(ppd.workspace_desc(), engine);
  m.drop1_in = dnnl::memory(pool_md, engine);
  m.forward.push_back({dnnl::pooling_forward(ppd),
                       {{DNNL_ARG_SRC, relu2}, {DNNL_ARG_DST, m.drop1_in}, {DNNL_ARG_WORKSPACE, workspace}}});
  m.drop1_out = dnnl::memory(pool_md, engine);
  m.mask1.resize(count(m.drop1_out));

  dnnl::memory d_drop2_out_holder;
  dnnl::memory d_fc1_src;
  dnnl::memory d_fc1_out_holder;
  m.drop2_in = m.dense(m.drop1_out, 128, true, d_fc1_src, d_fc1_out_holder, wseed);
  m.drop2_out = dnnl::memory(m.drop2_in.get_desc(), engine);
  m.mask2.resize(count(m.drop2_out));
  dnnl::memory d_fc2_src;
  m.logits = m.dense(m.drop2_out, 10, false, d_fc2_src, m.d_logits, wseed);
  m.d_drop2_out = d_fc2_src;
  m.d_drop2_in = d_fc1_out_holder;
  m.d_drop1_out = d_fc1_src;
  m.d_drop1_in = dnnl::memory(pool_md, engine);
  const dnnl::pooling_backward::desc pbd(dnnl::algorithm::pooling_max, relu2_md, pool_md, {2, 2}, {2, 2}, {0, 0},
                                         {0, 0});
  // Pooling backward runs between the dense layers' backward (done by then) and conv2's.
  auto pool_back = std::make_pair(
      dnnl::primitive(dnnl::pooling_backward(dnnl::pooling_backward::primitive_desc(pbd, engine, ppd))),
      Args{{DNNL_ARG_DIFF_DST, m.d_drop1_in}, {DNNL_ARG_DIFF_SRC, d_relu2}, {DNNL_ARG_WORKSPACE, workspace}});
  // backward now holds [fc2 ..., fc1 ..., conv2 ..., conv1 ...]; pooling goes right after fc1's
  // backward-data (whose result the dropout turns into pooling's input gradient).
  std::size_t insert_at = 0;
  for (std::size_t i = 0; i < m.backward.size(); ++i) {
    if (m.backward[i].second.count(DNNL_ARG_DIFF_SRC) != 0 && m.backward[i].second.at(DNNL_ARG_DIFF_SRC) == d_fc1_src) {
      insert_at = i + 1;
    }
  }
  m.backward.insert(m.backward.begin() + static_cast<std::ptrdiff_t>(insert_at), pool_back);
}

MnistTrainer::~MnistTrainer() = default;

namespace {

void dropout_forward(const float* in, float* out, std::vector<float>& mask, float rate, std::uint32_t& state) {
  const float keep = 1.0F - rate;
  for (std::size_t i = 0; i < mask.size(); ++i) {
    mask[i] = uniform01(state) < keep ? 1.0F / keep : 0.0F;  // inverted dropout
    out[i] = in[i] * mask[i];
  }
}

void dropout_backward(const float* d_out, float* d_in, const std::vector<float>& mask) {
  for (std::size_t i = 0; i < mask.size(); ++i) d_in[i] = d_out[i] * mask[i];
}

}  // namespace

double MnistTrainer::step(const std::vector<float>& images, const std::vector<int>& labels) {
  Impl& m = *impl_;
  std::copy(images.begin(), images.end(), data(m.input));
  // Forward: conv1, relu1, conv2, relu2, pool | dropout 0.25 | fc1, relu | dropout 0.5 | fc2.
  for (std::size_t i = 0; i < 5; ++i) m.forward[i].first.execute(m.stream, m.forward[i].second);
  m.stream.wait();
  dropout_forward(data(m.drop1_in), data(m.drop1_out), m.mask1, 0.25F, m.dropout_state);
  for (std::size_t i = 5; i < 7; ++i) m.forward[i].first.execute(m.stream, m.forward[i].second);
  m.stream.wait();
  dropout_forward(data(m.drop2_in), data(m.drop2_out), m.mask2, 0.5F, m.dropout_state);
  m.forward[7].first.execute(m.stream, m.forward[7].second);
  m.stream.wait();

  // Softmax cross-entropy and its gradient with respect to the logits.
  const float* z = data(m.logits);
  float* dz = data(m.d_logits);
  double loss = 0;
  for (std::int64_t b = 0; b < m.batch; ++b) {
    const float* row = z + b * 10;
    const float top = *std::max_element(row, row + 10);
    double sum = 0;
    for (int c = 0; c < 10; ++c) sum += std::exp(static_cast<double>(row[c] - top));
    for (int c = 0; c < 10; ++c) {
      const double p = std::exp(static_cast<double>(row[c] - top)) / sum;
      dz[b * 10 + c] = static_cast<float>((p - (c == labels[static_cast<std::size_t>(b)] ? 1.0 : 0.0)) /
                                          static_cast<double>(m.batch));
    }
    loss -= static_cast<double>(row[labels[static_cast<std::size_t>(b)]] - top) - std::log(sum);
  }

  // Backward, with the dropouts between the primitives.
  for (auto& [primitive, args] : m.backward) {
    primitive.execute(m.stream, args);
    m.stream.wait();
    if (args.count(DNNL_ARG_DIFF_SRC) != 0 && args.at(DNNL_ARG_DIFF_SRC) == m.d_drop2_out) {
      dropout_backward(data(m.d_drop2_out), data(m.d_drop2_in), m.mask2);
    } else if (args.count(DNNL_ARG_DIFF_SRC) != 0 && args.at(DNNL_ARG_DIFF_SRC) == m.d_drop1_out) {
      dropout_backward(data(m.d_drop1_out), data(m.d_drop1_in), m.mask1);
    }
  }
  for (auto& p : m.params) p.update();
  return loss / static_cast<double>(m.batch);
}

}  // namespace perfzero::onednn
