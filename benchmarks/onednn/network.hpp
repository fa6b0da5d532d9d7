#pragma once
// A feed-forward network built from oneDNN primitives: convolutions (batch norm folded in, as
// inference does), ReLU and residual sums fused as post-ops, pooling and fully connected layers.
// Layouts are oneDNN's choice (format_tag::any) and flow from each layer to the next.
#include <cstdint>
#include <memory>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace perfzero::onednn {

class Network {
 public:
  Network(dnnl::engine engine, std::int64_t batch, std::int64_t channels, std::int64_t height, std::int64_t width);

  // Each call appends a layer fed by the current output and makes its output current. Returns an id.
  int conv(std::int64_t out_channels, std::int64_t kernel, std::int64_t stride, std::int64_t pad, bool relu,
           std::int64_t groups = 1, float relu_clip = 0.0F);
  int max_pool(std::int64_t kernel, std::int64_t stride, std::int64_t pad);
  int global_avg_pool();
  int fully_connected(std::int64_t outputs, bool relu);
  // Residual: `conv` whose result is added to the output of layer `shortcut` (same shape), then ReLU.
  int conv_add(int shortcut, std::int64_t out_channels, std::int64_t kernel, std::int64_t stride, std::int64_t pad);
  // Makes the output of layer `id` current again (to branch, as a residual block does).
  void resume_from(int id);

  void set_input(const std::vector<float>& nchw);
  void run(dnnl::stream& stream);
  std::vector<float> output(dnnl::stream& stream) const;  // batch x classes, plain layout
  std::int64_t input_size() const { return batch_ * channels_ * height_ * width_; }
  double flops() const { return flops_; }  // multiply-adds counted as 2
  std::int64_t parameters() const { return parameters_; }

 private:
  struct Step {
    dnnl::primitive primitive;
    std::unordered_map<int, dnnl::memory> args;
  };
  // A convolution with these post-ops; with shortcut >= 0 it adds into a copy of that layer's output.
  int add_conv(std::int64_t out_channels, std::int64_t kernel, std::int64_t stride, std::int64_t pad,
               std::int64_t groups, const dnnl::post_ops& ops, int shortcut);
  int pool(dnnl::algorithm algorithm, const dnnl::memory::dims& kernel, std::int64_t stride, std::int64_t pad,
           const dnnl::memory::dims& out_hw);
  // Adds a layer's step and makes its output current; returns the layer's id.
  int append(dnnl::primitive primitive, std::unordered_map<int, dnnl::memory> args, const dnnl::memory& dst);
  // Adds a reorder step when the next primitive wants the current output in another layout.
  void reorder_current_to(const dnnl::memory::desc& wanted);
  dnnl::memory new_bias(std::int64_t outputs);
  dnnl::memory new_weights(const dnnl::memory::desc& wanted, const dnnl::memory::dims& dims,
                           dnnl::memory::format_tag plain, std::int64_t fan_in);

  dnnl::engine engine_;
  dnnl::stream setup_stream_;
  std::int64_t batch_, channels_, height_, width_;
  dnnl::memory input_plain_;
  std::vector<Step> steps_;
  std::vector<dnnl::memory> outputs_;  // by layer id
  dnnl::memory current_;
  double flops_ = 0;
  std::int64_t parameters_ = 0;
  std::uint32_t seed_ = 1;
};

// The architectures, for 224 x 224 RGB input and 1000 classes.
std::unique_ptr<Network> build_network(const std::string& name, dnnl::engine engine, std::int64_t batch);

}  // namespace perfzero::onednn
