#pragma once
// The CPU's theoretical peak, for "% of peak": threads x GHz x FLOPs per cycle per core, with every
// input and assumption named so a report shows how the figure was made.
#include <string>

namespace perfzero::onednn {

struct Peak {
  double gflops = 0;
  int threads = 0;
  double ghz = 0;
  std::string ghz_source;      // cpuinfo_max_freq or "cpu MHz" in /proc/cpuinfo
  double flops_per_cycle = 0;  // per core, for the data type
  std::string flops_per_cycle_rule;
};

// dtype: "f32" or "bf16"; isa: oneDNN's dispatched ISA name (e.g. avx512_core_bf16).
Peak theoretical_peak(int threads, const std::string& dtype, const std::string& isa);

}  // namespace perfzero::onednn
