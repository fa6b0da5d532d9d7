#include "runner/outcome_classifier.hpp"

#include <cstring>

#include <fmt/format.h>

namespace perfzero::runner {

std::string signal_name(int signal) {
  const char* abbrev = ::sigabbrev_np(signal);
  return abbrev != nullptr ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", signal);
}

namespace {
std::string seconds_text(double s) { return fmt::format("{:.3f} s", s); }
}  // namespace

// has_exception is PerfZero's "this method broke" flag, which its dashboards filter on: true whenever the
// method did not run to a normal end (launch failure, timeout, crash, non-zero exit, error, no valid
// result). A metric outside its bounds ran normally and is only not succeeded; skipped is neither
// (docs/reports.md, "Outcomes").
Classification classify(const TrialExecution& execution, const std::variant<ChildResult, std::string>& result) {
  const auto* child = std::get_if<ChildResult>(&result);
  switch (execution.end) {
    case ProcessEnd::launch_failed:
      return {Outcome::failed, "could not start: " + execution.launch_error, true};
    case ProcessEnd::launcher_lost:
      return {Outcome::failed, execution.launch_error, true};
    case ProcessEnd::timed_out:
      return {Outcome::timed_out,
              "still running after " + seconds_text(execution.wall_seconds) + "; its process tree was killed", true};
    case ProcessEnd::interrupted:
      return {Outcome::interrupted, "the harness received " + signal_name(execution.signal), false};
    case ProcessEnd::signaled:
      return {Outcome::crashed, "ended by " + signal_name(execution.signal), true};
    case ProcessEnd::exited:
      break;
  }
  if (child != nullptr && child->skipped) return {Outcome::skipped, *child->skipped, false};
  if (execution.exit_code != 0) {
    std::string detail = fmt::format("exited with code {}", execution.exit_code);
    if (execution.exit_code == 127) detail += " (the command could not be run: see perfzero.log)";
    if (child != nullptr && child->error) detail += ": " + *child->error;
    return {Outcome::failed, detail, true};
  }
  if (child == nullptr) return {Outcome::invalid, std::get<std::string>(result), true};
  if (child->error) return {Outcome::failed, *child->error, true};
  for (const auto& metric : child->metrics) {
    if (metric.min_value && metric.value < *metric.min_value) {
      return {Outcome::failed,
              fmt::format("metric '{}' = {} is below its min_value {}", metric.name, metric.value, *metric.min_value),
              false};
    }
    if (metric.max_value && metric.value > *metric.max_value) {
      return {Outcome::failed,
              fmt::format("metric '{}' = {} is above its max_value {}", metric.name, metric.value, *metric.max_value),
              false};
    }
  }
  return {Outcome::succeeded, "", false};
}

}  // namespace perfzero::runner
