#pragma once
// The figures of a training-step method and its check that the network learnt, shared by every
// backend: ms/step and examples/s from the timed steps' median, the loss over the first and the last
// five timed steps, which must fall by at least a fifth.
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "perfzero/benchmark.hpp"

namespace perfzero::bench {

// How every backend measures its step: at least 30 timed steps, named "steps".
inline const params::MeasureDefaults kTrainingStepMeasure{
    .repetitions_name = "steps",
    .repetitions_description = "minimum timed steps over a fixed synthetic set (10 or more); the median counts",
    .repetitions = 30};

// A fixed labelled set of this many batches, cycled: the loss must fall as it is learnt.
inline constexpr int kTrainingBatches = 8;

// Reports the figures; false (and the method failed, saying why) when the loss cannot be checked or
// did not fall.
inline bool report_training_steps(Context& ctx, const RepetitionSeries& seconds, const std::vector<double>& losses,
                                  std::int64_t batch, double max_time) {
  if (losses.size() < 10) {
    ctx.fail("only " + std::to_string(losses.size()) + " steps ran before max_time (" + std::to_string(max_time) +
             " s); the loss check needs 10");
    return false;
  }
  const auto mean = [](auto first, auto last) {
    return std::accumulate(first, last, 0.0) / static_cast<double>(last - first);
  };
  const double first_loss = mean(losses.begin(), losses.begin() + 5);
  const double last_loss = mean(losses.end() - 5, losses.end());
  const double median = seconds.median();
  ctx.report("ms_per_step", median * 1e3, "ms", Direction::lower_is_better);
  ctx.report("examples_per_second", static_cast<double>(batch) / median, "examples/s", Direction::higher_is_better);
  // The losses check the method; they say nothing of speed, so they have no better direction.
  ctx.report("first_loss", first_loss, "1", Direction::unspecified);
  ctx.report("last_loss", last_loss, "1", Direction::unspecified);
  ctx.set_extra("batch", batch);
  ctx.set_extra("steps", static_cast<std::int64_t>(seconds.size()));
  ctx.set_extra("optimizer", std::string("Adadelta (rho 0.95, epsilon 1e-7, learning rate 1.0)"));
  if (!(last_loss < 0.8 * first_loss)) {
    ctx.fail("the loss did not fall: " + std::to_string(first_loss) + " over the first 5 steps, " +
             std::to_string(last_loss) + " over the last 5");
    return false;
  }
  return true;
}

}  // namespace perfzero::bench
