#pragma once
// What a sampler is made with: the run's own settings (its flags and suite keys), handed to each
// sampler when it is made for a trial, never kept in a global that the next run would inherit.
#include <memory>
#include <optional>

namespace perfzero::samplers {

struct CpuClockSettings {
  double threshold = 0.90;  // of the maximum clock
  double share = 0.10;      // of the trial's samples
};

// What leftover_files last saw of the shared-memory directory, kept for the run's next trial: listed
// again only when the directory's stamp moved (samplers/leftover_files_sampler.hpp).
struct DirListing;

struct SamplerContext {
  CpuClockSettings cpu_clock;                      // --cpu_throttle_threshold, --cpu_throttle_share
  std::shared_ptr<DirListing> shm_listing;         // one run's; none: each trial lists the directory itself
  std::optional<double> host_busy_threshold_cpus;  // --host_busy_threshold, the suite's key; none: the default
};

}  // namespace perfzero::samplers
