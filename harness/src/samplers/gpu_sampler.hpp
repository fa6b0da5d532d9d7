#pragma once
// NVIDIA GPUs through NVML while a trial runs: utilization (SM, memory), memory used, power, SM and
// memory clocks, temperature, throttle reasons, PCIe throughput and (where NVML has it) NVLink
// throughput, per GPU, on the monitor's clock. A trial during which a GPU throttled (power, thermal, HW slowdown) is
// flagged gpu_throttled. An NVML call that fails is recorded under "errors" and never fails the trial (docs/gpu.md).
#include <memory>
#include <string>
#include <vector>

#include "nvml/nvml_library.hpp"
#include "samplers/gpu_stats.hpp"
#include "samplers/sampler.hpp"

namespace perfzero::samplers {

class GpuSampler : public Sampler {
 public:
  // nullptr when NVML cannot be loaded or sees no GPU: the sampler is then left out.
  static std::unique_ptr<Sampler> make();
  // The same on the process's one NVML, opened (or found missing) at the first call: what each trial
  // uses, as nvmlInit takes tens of milliseconds on a GPU host and a failed dlopen searches the
  // whole library path. make() opens its own, so that tests of different fakes stay apart.
  static std::unique_ptr<Sampler> make_on_process_nvml();
  explicit GpuSampler(std::shared_ptr<nvml::Library> nvml);

  std::string name() const override { return "gpu"; }
  // NVML's utilization counters cover its own sample period (1/6 s to 1 s by GPU); faster adds nothing.
  std::chrono::milliseconds min_period() const override { return std::chrono::milliseconds(100); }
  void start(pid_t root) override;
  void sample(double time) override;
  SamplerOutput finish(const TrialFacts& facts) override;

  static const std::vector<std::string>& columns();

 private:
  void note_error(const std::string& error);
  // NVLink's counters are cumulative: a rate from this reading and the GPU's previous one.
  void add_nvlink_rates(unsigned gpu, nvml::GpuReading& reading);

  std::shared_ptr<nvml::Library> nvml_;
  std::vector<nvml::GpuDescription> gpus_;
  std::vector<GpuStats> stats_;
  std::vector<nvml::GpuReading> last_nvlink_;  // per GPU: the previous reading with NVLink counters
  std::vector<std::string> errors_;            // distinct messages, capped
  std::int64_t error_count_ = 0;
  results::TimeSeries series_;
};

}  // namespace perfzero::samplers
