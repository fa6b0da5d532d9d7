#include "config/case_settings.hpp"

#include <fmt/format.h>

#include "common/errors.hpp"

namespace perfzero::config {

namespace {

void apply(const RunSettings& layer, PlannedCase& c) {
  if (layer.trials) {
    c.trials = *layer.trials;
    c.auto_trials.reset();
  }
  if (layer.trials_auto) c.auto_trials.emplace();
  if (c.auto_trials) {
    AutoTrials& a = *c.auto_trials;
    if (layer.min_trials) a.min_trials = *layer.min_trials;
    if (layer.max_trials) a.max_trials = *layer.max_trials;
    if (layer.min_seconds) a.min_seconds = *layer.min_seconds;
    if (layer.max_seconds) a.max_seconds = *layer.max_seconds;
    if (layer.max_noise) a.max_noise = *layer.max_noise;
  }
  if (layer.warmup_trials) c.warmup_trials = *layer.warmup_trials;
  if (layer.timeout) c.timeout = *layer.timeout;
  if (layer.monitor_interval) c.monitor_interval = *layer.monitor_interval;
  if (layer.max_result_bytes) c.max_result_bytes = *layer.max_result_bytes;
  if (layer.max_log_bytes) c.max_log_bytes = *layer.max_log_bytes;
  for (const auto& [k, v] : layer.env) c.env[k] = v;
  apply(layer.launch, c.launch);
}

}  // namespace

void check_same_settings(const PlannedCase& first, const PlannedCase& again) {
  std::string differs;
  if (first.trials != again.trials) differs = fmt::format("trials {} vs {}", first.trials, again.trials);
  if (first.auto_trials.has_value() != again.auto_trials.has_value()) differs = "trials: auto vs a number";
  if (first.warmup_trials != again.warmup_trials) {
    differs = fmt::format("warmup_trials {} vs {}", first.warmup_trials, again.warmup_trials);
  }
  if (first.timeout != again.timeout) {
    differs = fmt::format("timeout {}ms vs {}ms", first.timeout.count(), again.timeout.count());
  }
  if (first.monitor_interval != again.monitor_interval) {
    differs =
        fmt::format("monitor_interval_ms {} vs {}", first.monitor_interval.count(), again.monitor_interval.count());
  }
  if (first.env != again.env) differs = "env";
  if (first.python != again.python) differs = "python settings";
  if (first.launch != again.launch) differs = "launch";
  if (!first.main_metric.empty() && !again.main_metric.empty() && first.main_metric != again.main_metric) {
    differs = fmt::format("main_metric {} vs {}", first.main_metric, again.main_metric);
  }
  if (differs.empty()) return;
  throw ConfigError(fmt::format("{}: '{}' is also asked for at {} with other settings ({}); list it once", again.origin,
                                again.name, first.origin, differs));
}

PlannedCase with_settings(const std::vector<const RunSettings*>& layers_low_to_high, const std::string& origin) {
  PlannedCase c;
  c.timeout = kDefaultTimeout;
  c.monitor_interval = kDefaultMonitorInterval;
  c.max_result_bytes = kDefaultMaxResultBytes;
  c.max_log_bytes = kDefaultMaxLogBytes;
  // The auto settings may come from a lower layer than `trials: auto` itself: gather them first.
  RunSettings limits;
  for (const RunSettings* layer : layers_low_to_high) {
    for (auto [from, to] :
         {std::pair{&layer->min_trials, &limits.min_trials}, {&layer->max_trials, &limits.max_trials}}) {
      if (*from) *to = *from;
    }
    for (auto [from, to] : {std::pair{&layer->min_seconds, &limits.min_seconds},
                            {&layer->max_seconds, &limits.max_seconds},
                            {&layer->max_noise, &limits.max_noise}}) {
      if (*from) *to = *from;
    }
  }
  for (const RunSettings* layer : layers_low_to_high) apply(*layer, c);
  if (c.auto_trials) {
    apply(limits, c);
    if (c.auto_trials->min_trials > c.auto_trials->max_trials) {
      throw ConfigError(fmt::format("{}: trials: auto: min_trials {} is above max_trials {}", origin,
                                    c.auto_trials->min_trials, c.auto_trials->max_trials));
    }
    c.trials = c.auto_trials->max_trials;
  }
  if (const std::string problem = launch_problem(c.launch); !problem.empty()) {
    throw ConfigError(fmt::format("{}: launch: {}", origin, problem));
  }
  return c;
}

}  // namespace perfzero::config
