#pragma once
// The host's CPU counters as trials saw them, kept across trials: a trial too short for tick-based
// accounting (under HostLoadSampler::kMinWindowSeconds) is judged over a window that reaches back
// to an earlier reading, the harness's own CPU (its threads, and the trees it ran) taken out.
#include <chrono>
#include <deque>
#include <optional>

#include "samplers/host_load_sampler.hpp"

namespace perfzero::samplers {

class LoadTimeline {
 public:
  using Clock = std::chrono::steady_clock;
  struct Mark {
    Clock::time_point time;
    CpuTimes cpu;
    double own_cpu_seconds = 0;  // the harness's process CPU plus every finished trial tree's, so far
  };

  // The run's one timeline (trials run one at a time on the harness thread).
  static LoadTimeline& shared();

  void add(const Mark& mark);
  // The latest mark at least `span` before `end`, if it is not older than `stale` (a reading from a
  // minute ago says nothing about now).
  std::optional<Mark> reaching_back(Clock::time_point end, std::chrono::duration<double> span,
                                    std::chrono::duration<double> stale) const;
  // The newest mark, if one is younger than `stale`.
  std::optional<Mark> newest(Clock::time_point now, std::chrono::duration<double> stale) const;
  // What the finished trials' trees used: added as each trial ends, so later windows can take it out.
  void add_tree_cpu(double seconds) { trees_cpu_seconds_ += seconds; }
  double trees_cpu_seconds() const { return trees_cpu_seconds_; }

 private:
  std::deque<Mark> marks_;
  double trees_cpu_seconds_ = 0;
};

}  // namespace perfzero::samplers
