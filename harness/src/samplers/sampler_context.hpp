#pragma once
// What a sampler is made with: the run's own settings (its flags and suite keys), handed to each
// sampler when it is made for a trial, never kept in a global that the next run would inherit.
namespace perfzero::samplers {

struct CpuClockSettings {
  double threshold = 0.90;  // of the maximum clock
  double share = 0.10;      // of the trial's samples
};

struct SamplerContext {
  CpuClockSettings cpu_clock;  // --cpu_throttle_threshold, --cpu_throttle_share
};

}  // namespace perfzero::samplers
