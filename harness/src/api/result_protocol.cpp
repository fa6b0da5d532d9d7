#include "result_protocol.hpp"

#include <cmath>

namespace perfzero::detail {

nlohmann::json repetitions_to_result(const std::vector<RepetitionSeries>& series) {
  nlohmann::json out = nlohmann::json::array();
  for (const RepetitionSeries& s : series) {
    const double noise = s.relative_noise();
    out.push_back({{"name", s.name},
                   {"unit", s.unit},
                   {"values", s.values},
                   {"warmups", s.warmups},
                   {"stopped_by", std::string(to_string(s.stopped_by))},
                   // Undefined for one value: null rather than an infinity JSON cannot hold.
                   {"relative_noise", std::isfinite(noise) ? nlohmann::json(noise) : nlohmann::json(nullptr)}});
  }
  return out;
}

nlohmann::json context_to_result(const Context& context) {
  nlohmann::json result = {{"protocol_version", kResultProtocolVersion}};
  nlohmann::json metrics = nlohmann::json::array();
  for (const Metric& m : context.metrics()) {
    nlohmann::json metric = {{"name", m.name}, {"value", m.value}, {"unit", m.unit}};
    if (m.min_value) metric["min_value"] = *m.min_value;
    if (m.max_value) metric["max_value"] = *m.max_value;
    if (m.direction != Direction::unspecified) metric["direction"] = std::string(to_string(m.direction));
    metrics.push_back(std::move(metric));
  }
  result["metrics"] = std::move(metrics);
  nlohmann::json extras = nlohmann::json::object();
  for (const auto& entry : context.extras()) {
    std::visit([&](const auto& v) { extras[entry.first] = v; }, entry.second);
  }
  result["extras"] = std::move(extras);
  if (!context.repetitions().empty()) result["repetitions"] = repetitions_to_result(context.repetitions());
  if (const auto& fw = context.framework()) {
    result["ml_framework_info"] = {{"name", fw->name}, {"version", fw->version}, {"build_version", fw->build_version}};
  }
  if (const auto& reason = context.skip_reason()) result["skipped"] = *reason;
  if (const auto& failure = context.failure()) result["error"] = *failure;
  return result;
}

}  // namespace perfzero::detail
