#include "onednn/network.hpp"

#include "onednn/synthetic.hpp"

#include <cmath>
#include <stdexcept>

namespace perfzero::onednn {

namespace {

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

std::int64_t out_size(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad) {
  return (in + 2 * pad - kernel) / stride + 1;
}

}  // namespace

Network::Network(dnnl::engine engine, std::int64_t batch, std::int64_t channels, std::int64_t height,
                 std::int64_t width)
    : engine_(std::move(engine)),
      setup_stream_(engine_),
      batch_(batch),
      channels_(channels),
      height_(height),
      width_(width),
      input_plain_({{batch, channels, height, width}, dt::f32, tag::nchw}, engine_) {
  current_ = input_plain_;
}

dnnl::memory Network::new_weights(const dnnl::memory::desc& wanted, const dnnl::memory::dims& dims, tag plain,
                                  std::int64_t fan_in) {
  dnnl::memory values({dims, dt::f32, plain}, engine_);
  auto* p = static_cast<float*>(values.get_data_handle());
  std::int64_t count = 1;
  for (auto d : dims) count *= d;
  // He-scaled, so activations keep their size through deep networks instead of overflowing.
  const float scale = std::sqrt(6.0F / static_cast<float>(fan_in));
  for (std::int64_t i = 0; i < count; ++i) p[i] = scale * noise(seed_);
  parameters_ += count;
  if (wanted == values.get_desc()) return values;
  dnnl::memory blocked(wanted, engine_);
  dnnl::reorder(values, blocked).execute(setup_stream_, values, blocked);
  setup_stream_.wait();
  return blocked;
}

dnnl::memory Network::new_bias(std::int64_t outputs) {
  dnnl::memory bias({{outputs}, dt::f32, tag::x}, engine_);
  auto* p = static_cast<float*>(bias.get_data_handle());
  for (std::int64_t i = 0; i < outputs; ++i) p[i] = 0.01F * noise(seed_);  // a folded batch norm's shift
  return bias;
}

int Network::conv(std::int64_t out_channels, std::int64_t kernel, std::int64_t stride, std::int64_t pad, bool relu,
                  std::int64_t groups, float relu_clip) {
  dnnl::post_ops ops;
  if (relu) {
    // ReLU, or ReLU6 (MobileNet) as a clip to [0, relu_clip].
    if (relu_clip > 0) {
      ops.append_eltwise(1.0F, dnnl::algorithm::eltwise_clip, 0.0F, relu_clip);
    } else {
      ops.append_eltwise(1.0F, dnnl::algorithm::eltwise_relu, 0.0F, 0.0F);
    }
  }
  return add_conv(out_channels, kernel, stride, pad, groups, ops, -1);
}

int Network::conv_add(int shortcut, std::int64_t out_channels, std::int64_t kernel, std::int64_t stride,
                      std::int64_t pad) {
  // dst = conv(src) + dst with dst a copy of the shortcut (a sum post-op), then ReLU.
  dnnl::post_ops ops;
  ops.append_sum(1.0F);
  ops.append_eltwise(1.0F, dnnl::algorithm::eltwise_relu, 0.0F, 0.0F);
  return add_conv(out_channels, kernel, stride, pad, 1, ops, shortcut);
}

int Network::add_conv(std::int64_t out_channels, std::int64_t kernel, std::int64_t stride, std::int64_t pad,
                      std::int64_t groups, const dnnl::post_ops& ops, int shortcut) {
  const auto in = current_.get_desc().dims();
  const std::int64_t oh = out_size(in[2], kernel, stride, pad);
  const std::int64_t ow = out_size(in[3], kernel, stride, pad);
  const dnnl::memory::dims weight_dims =
      groups == 1 ? dnnl::memory::dims{out_channels, in[1], kernel, kernel}
                  : dnnl::memory::dims{groups, out_channels / groups, in[1] / groups, kernel, kernel};
  const dnnl::memory::desc b_md({out_channels}, dt::f32, tag::x);
  // A residual sum writes into the shortcut's layout; otherwise the convolution chooses its output
  // layout, and its source layout too: handed the previous layer's layout, MobileNet's first
  // depthwise convolution fell to oneDNN's reference kernel (60 of its 78 ms).
  const dnnl::memory* sc = shortcut >= 0 ? &outputs_.at(static_cast<std::size_t>(shortcut)) : nullptr;
  const dnnl::memory::desc dst_md =
      sc != nullptr ? sc->get_desc() : dnnl::memory::desc({in[0], out_channels, oh, ow}, dt::f32, tag::any);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  const dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                          dnnl::memory::desc(in, dt::f32, tag::any),
                                          dnnl::memory::desc(weight_dims, dt::f32, tag::any), b_md, dst_md,
                                          {stride, stride}, {pad, pad}, {pad, pad});
  const dnnl::convolution_forward::primitive_desc pd(d, attr, engine_);
  reorder_current_to(pd.src_desc());
  const std::int64_t fan_in = in[1] / groups * kernel * kernel;
  auto weights = new_weights(pd.weights_desc(), weight_dims, groups == 1 ? tag::oihw : tag::goihw, fan_in);
  dnnl::memory bias = new_bias(out_channels);
  dnnl::memory dst(pd.dst_desc(), engine_);
  if (sc != nullptr) steps_.push_back({dnnl::reorder(*sc, dst), {{DNNL_ARG_FROM, *sc}, {DNNL_ARG_TO, dst}}});
  flops_ += 2.0 * static_cast<double>(in[0] * out_channels * oh * ow * fan_in);
  return append(dnnl::convolution_forward(pd),
                {{DNNL_ARG_SRC, current_}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}},
                dst);
}

int Network::max_pool(std::int64_t kernel, std::int64_t stride, std::int64_t pad) {
  const auto in = current_.get_desc().dims();
  return pool(dnnl::algorithm::pooling_max, {kernel, kernel}, stride, pad,
              {out_size(in[2], kernel, stride, pad), out_size(in[3], kernel, stride, pad)});
}

int Network::global_avg_pool() {
  const auto in = current_.get_desc().dims();
  return pool(dnnl::algorithm::pooling_avg_exclude_padding, {in[2], in[3]}, 1, 0, {1, 1});
}

int Network::pool(dnnl::algorithm algorithm, const dnnl::memory::dims& kernel, std::int64_t stride, std::int64_t pad,
                  const dnnl::memory::dims& out_hw) {
  const auto src_md = current_.get_desc();
  const auto in = src_md.dims();
  const dnnl::memory::desc dst_any({in[0], in[1], out_hw[0], out_hw[1]}, dt::f32, tag::any);
  const dnnl::pooling_forward::desc d(dnnl::prop_kind::forward_inference, algorithm, src_md, dst_any, {stride, stride},
                                      kernel, {pad, pad}, {pad, pad});
  const dnnl::pooling_forward::primitive_desc pd(d, engine_);
  dnnl::memory dst(pd.dst_desc(), engine_);
  return append(dnnl::pooling_forward(pd), {{DNNL_ARG_SRC, current_}, {DNNL_ARG_DST, dst}}, dst);
}

int Network::append(dnnl::primitive primitive, std::unordered_map<int, dnnl::memory> args, const dnnl::memory& dst) {
  steps_.push_back({std::move(primitive), std::move(args)});
  current_ = dst;
  outputs_.push_back(dst);
  return static_cast<int>(outputs_.size()) - 1;
}

int Network::fully_connected(std::int64_t outputs, bool relu) {
  const auto src_md = current_.get_desc();
  const auto in = src_md.dims();
  dnnl::memory::dims weight_dims{outputs};
  std::int64_t fan_in = 1;
  for (std::size_t i = 1; i < in.size(); ++i) {
    weight_dims.push_back(in[i]);
    fan_in *= in[i];
  }
  const dnnl::memory::desc b_md({outputs}, dt::f32, tag::x);
  const dnnl::memory::desc dst_md({in[0], outputs}, dt::f32, tag::nc);
  dnnl::post_ops ops;
  if (relu) ops.append_eltwise(1.0F, dnnl::algorithm::eltwise_relu, 0.0F, 0.0F);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  const dnnl::inner_product_forward::desc d(dnnl::prop_kind::forward_inference, src_md,
                                            dnnl::memory::desc(weight_dims, dt::f32, tag::any), b_md, dst_md);
  const dnnl::inner_product_forward::primitive_desc pd(d, attr, engine_);
  const tag plain = weight_dims.size() == 4 ? tag::oihw : tag::oi;
  auto weights = new_weights(pd.weights_desc(), weight_dims, plain, fan_in);
  dnnl::memory bias = new_bias(outputs);
  dnnl::memory dst(pd.dst_desc(), engine_);
  flops_ += 2.0 * static_cast<double>(in[0] * outputs * fan_in);
  return append(dnnl::inner_product_forward(pd),
                {{DNNL_ARG_SRC, current_}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}},
                dst);
}

void Network::resume_from(int id) { current_ = outputs_.at(static_cast<std::size_t>(id)); }

void Network::reorder_current_to(const dnnl::memory::desc& wanted) {
  if (current_.get_desc() == wanted) return;
  dnnl::memory converted(wanted, engine_);
  steps_.push_back({dnnl::reorder(current_, converted), {{DNNL_ARG_FROM, current_}, {DNNL_ARG_TO, converted}}});
  current_ = converted;
}

void Network::set_input(const std::vector<float>& nchw) {
  if (static_cast<std::int64_t>(nchw.size()) != input_size()) throw std::invalid_argument("input size mismatch");
  std::copy(nchw.begin(), nchw.end(), static_cast<float*>(input_plain_.get_data_handle()));
}

void Network::run(dnnl::stream& stream) {
  for (auto& step : steps_) step.primitive.execute(stream, step.args);
  stream.wait();
}

std::vector<float> Network::output(dnnl::stream& stream) const {
  const auto dims = current_.get_desc().dims();
  dnnl::memory plain({{dims[0], dims[1]}, dt::f32, tag::nc}, engine_);
  dnnl::memory flat = current_;
  if (dims.size() == 4)
    flat = dnnl::memory(current_.get_desc().reshape({dims[0], dims[1]}), engine_, current_.get_data_handle());
  dnnl::reorder(flat, plain).execute(stream, flat, plain);
  stream.wait();
  const auto* p = static_cast<const float*>(plain.get_data_handle());
  return {p, p + dims[0] * dims[1]};
}

namespace {

void vgg(Network& net, const std::vector<int>& convs_per_stage) {
  const std::int64_t widths[] = {64, 128, 256, 512, 512};
  for (std::size_t s = 0; s < convs_per_stage.size(); ++s) {
    for (int c = 0; c < convs_per_stage[s]; ++c) net.conv(widths[s], 3, 1, 1, true);
    net.max_pool(2, 2, 0);
  }
  net.fully_connected(4096, true);
  net.fully_connected(4096, true);
  net.fully_connected(1000, false);
}

void resnet50(Network& net) {
  net.conv(64, 7, 2, 3, true);
  int x = net.max_pool(3, 2, 1);
  const int blocks[] = {3, 4, 6, 3};
  const std::int64_t widths[] = {64, 128, 256, 512};
  for (int stage = 0; stage < 4; ++stage) {
    for (int b = 0; b < blocks[stage]; ++b) {
      const std::int64_t stride = (b == 0 && stage > 0) ? 2 : 1;  // v1.5: the stride is in the 3x3
      const std::int64_t out = 4 * widths[stage];
      int shortcut = x;
      if (b == 0) {
        shortcut = net.conv(out, 1, stride, 0, false);  // projection
        net.resume_from(x);
      }
      net.conv(widths[stage], 1, 1, 0, true);
      net.conv(widths[stage], 3, stride, 1, true);
      x = net.conv_add(shortcut, out, 1, 1, 0);
    }
  }
  net.global_avg_pool();
  net.fully_connected(1000, false);
}

void mobilenet_v1(Network& net) {
  constexpr float kRelu6 = 6.0F;
  net.conv(32, 3, 2, 1, true, 1, kRelu6);
  const std::pair<std::int64_t, std::int64_t> blocks[] = {{64, 1},  {128, 2},  {128, 1}, {256, 2}, {256, 1},
                                                          {512, 2}, {512, 1},  {512, 1}, {512, 1}, {512, 1},
                                                          {512, 1}, {1024, 2}, {1024, 1}};
  std::int64_t channels = 32;
  for (const auto& [out, stride] : blocks) {
    net.conv(channels, 3, stride, 1, true, channels, kRelu6);  // depthwise
    net.conv(out, 1, 1, 0, true, 1, kRelu6);                   // pointwise
    channels = out;
  }
  net.global_avg_pool();
  net.fully_connected(1000, false);
}

}  // namespace

std::unique_ptr<Network> build_network(const std::string& name, dnnl::engine engine, std::int64_t batch) {
  auto net = std::make_unique<Network>(std::move(engine), batch, 3, 224, 224);
  if (name == "resnet50") {
    resnet50(*net);
  } else if (name == "vgg16") {
    vgg(*net, {2, 2, 3, 3, 3});
  } else if (name == "vgg19") {
    vgg(*net, {2, 2, 4, 4, 4});
  } else if (name == "mobilenet_v1") {
    mobilenet_v1(*net);
  } else {
    throw std::invalid_argument("unknown network " + name);
  }
  return net;
}

}  // namespace perfzero::onednn
