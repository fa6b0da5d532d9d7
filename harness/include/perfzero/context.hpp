#pragma once
// What a benchmark method receives: its parameters, and where it reports metrics, extras, a skip or
// a failure. Problems are reported through the context (as Google Benchmark's SkipWithError does);
// an exception escaping the method is recorded as a failure with its message.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "perfzero/metric.hpp"
#include "perfzero/param.hpp"
#include "perfzero/repetition_series.hpp"

namespace perfzero {

using ExtraValue = std::variant<std::int64_t, double, bool, std::string>;

struct FrameworkInfo {
  std::string name;
  std::string version;
  std::string build_version;
};

class Context {
 public:
  explicit Context(ParamMap params) : params_(std::move(params)) {}

  std::int64_t int_param(std::string_view name) const;
  double number_param(std::string_view name) const;
  bool bool_param(std::string_view name) const;
  const std::string& string_param(std::string_view name) const;

  void report(Metric metric) { metrics_.push_back(std::move(metric)); }
  void report(std::string name, double value, std::string unit, Direction direction = Direction::unspecified) {
    metrics_.push_back(Metric{std::move(name), value, std::move(unit), std::nullopt, std::nullopt, direction});
  }
  void set_extra(std::string key, ExtraValue value) { extras_[std::move(key)] = std::move(value); }
  void set_framework(FrameworkInfo info) { framework_ = std::move(info); }
  // Every timed repetition of one series (perfzero::measure() records its own); the result file
  // carries them. Throws std::invalid_argument for an empty or unnamed series or a name used twice.
  void record_repetitions(RepetitionSeries series);
  // The method should return right after these: the harness records the outcome, not the metrics.
  void skip(std::string reason) { skip_reason_ = std::move(reason); }
  void fail(std::string reason) { failure_ = std::move(reason); }

  const ParamMap& params() const { return params_; }
  const std::vector<Metric>& metrics() const { return metrics_; }
  const std::map<std::string, ExtraValue>& extras() const { return extras_; }
  const std::optional<FrameworkInfo>& framework() const { return framework_; }
  const std::vector<RepetitionSeries>& repetitions() const { return repetitions_; }
  const std::optional<std::string>& skip_reason() const { return skip_reason_; }
  const std::optional<std::string>& failure() const { return failure_; }

 private:
  const ParamValue& param(std::string_view name) const;

  ParamMap params_;
  std::vector<Metric> metrics_;
  std::map<std::string, ExtraValue> extras_;
  std::optional<FrameworkInfo> framework_;
  std::vector<RepetitionSeries> repetitions_;
  std::optional<std::string> skip_reason_;
  std::optional<std::string> failure_;
};

}  // namespace perfzero
