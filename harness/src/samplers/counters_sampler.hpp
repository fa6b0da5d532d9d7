#pragma once
// What the CPU did for the method: the counters perfzero-launch counted from the method's exec over
// its whole tree (task clock, context switches, CPU migrations, page faults; cycles, instructions,
// branches and cache references with their misses where the machine has a PMU). They become metrics
// of the trial, so compare, the history and report see them; what could not be counted is named
// with the reason in perfzero_cpp.samplers.counters (docs/monitoring.md). Never fails a trial.
#include <cstdint>
#include <string>

#include "samplers/counter_readings.hpp"
#include "samplers/sampler.hpp"

namespace perfzero::samplers {

class CountersSampler : public Sampler {
 public:
  std::string name() const override { return "counters"; }
  void start(pid_t /*root*/) override {}
  void sample(double /*time*/) override {}
  SamplerOutput finish(const TrialFacts& facts) override;
};

// The sampler's output from the readings alone (unit-tested on recorded values).
SamplerOutput counters_output(const std::optional<CounterReadings>& readings);
// Why a counter could not be counted, from perf_event_open's errno, in words a user can act on.
std::string why_not_counted(int error, bool hardware);

}  // namespace perfzero::samplers
