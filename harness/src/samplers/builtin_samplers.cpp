// The optional samplers this build has: one line each. The process tree is always on (runner).
#include "samplers/counters_sampler.hpp"
#include "samplers/cpu_clock_sampler.hpp"
#include "samplers/gpu_sampler.hpp"
#include "samplers/host_load_sampler.hpp"
#include "samplers/leftover_files_sampler.hpp"

namespace perfzero::samplers {

const std::vector<SamplerInfo>& builtin_samplers() {
  static const std::vector<SamplerInfo> all{
      {"host_load", "whole-machine CPU use besides the trial; flags host_busy",
       [](const SamplerContext& c) {
         return std::make_unique<HostLoadSampler>("/proc/stat", nullptr, c.host_busy_threshold_cpus);
       }},
      {"leftover_files", "files a trial left in /dev/shm and in its TMPDIR, with their size; flags left_files",
       [](const SamplerContext& c) { return std::make_unique<LeftoverFilesSampler>("/dev/shm", c.shm_listing); }},
      {"counters",
       "what the CPU did for the method (perf_event_open from its exec, children included: task clock, context "
       "switches, migrations, page faults; cycles, instructions, branches, cache misses with a PMU): metrics",
       [](const SamplerContext&) { return std::make_unique<CountersSampler>(); }},
      {"cpu_clock",
       "the CPU's clock while the method ran (cpufreq, else /proc/cpuinfo) and thermal throttle events; flags "
       "cpu_throttled",
       [](const SamplerContext& c) { return std::make_unique<CpuClockSampler>(CpuClockPaths{}, c.cpu_clock); }},
      {"gpu", "NVIDIA GPUs through NVML: utilization, memory, power, clocks, temperature, PCIe; flags gpu_throttled",
       [](const SamplerContext&) { return GpuSampler::make_on_process_nvml(); }},
  };
  return all;
}

std::vector<std::unique_ptr<Sampler>> make_builtin_samplers(const SamplerContext& context) {
  std::vector<std::unique_ptr<Sampler>> out;
  for (const auto& info : builtin_samplers()) {
    if (auto sampler = info.make(context)) out.push_back(std::move(sampler));
  }
  return out;
}

}  // namespace perfzero::samplers
