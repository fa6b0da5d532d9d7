#include "export_formats/export_samples.hpp"

#include <map>
#include <set>

namespace perfzero::export_formats {

namespace {

std::string string_at(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string field_name(const std::string& param) {
  std::string out = "param_";
  for (char c : param) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out += keep ? c : '_';
  }
  return out;
}

nlohmann::json flat_value(const nlohmann::json& value) {
  if (value.is_number()) return value;
  if (value.is_string()) return value;
  // Booleans, lists and objects as their JSON text: a keyword a dashboard can group by.
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

RunFields run_fields(const results::Run& run) {
  const auto& info = run.info;
  RunFields f;
  f.execution_id = info.execution_id;
  f.execution_label = info.execution_label;
  f.platform_name = info.platform_name;
  f.system_name = info.system_name;
  f.instance_type = info.instance_type;
  f.cpu_model = string_at(info.system_info, "cpu_model");
  if (info.system.is_object() && info.system.contains("cloud")) f.cloud = string_at(info.system["cloud"], "vendor");
  f.harness_version = info.harness_version;
  f.status = run.status;
  f.execution_timestamp = info.execution_timestamp;
  return f;
}

std::vector<Sample> trial_samples(const results::Run& run) {
  std::vector<Sample> out;
  for (const auto& c : run.cases) {
    for (const auto& t : c.trials) {
      std::map<std::string, int> seen;
      const auto add = [&](const std::string& metric, double value, const std::string& unit) {
        out.push_back({&c, &t, metric, value, unit, seen[metric]++, run.info.execution_timestamp + t.started_offset});
      };
      add("wall_time", t.wall_time, "s");
      for (const auto& m : t.metrics) add(m.name, m.value, m.unit);
      if (t.process.max_rss > 0) add("max_rss", static_cast<double>(t.process.max_rss), "bytes");
      if (t.process.max_cpu_percent > 0) add("max_cpu_percent", t.process.max_cpu_percent, "%");
    }
  }
  return out;
}

std::vector<std::pair<std::string, nlohmann::json>> flat_params(const nlohmann::json& params) {
  std::vector<std::pair<std::string, nlohmann::json>> out;
  if (!params.is_object()) return out;
  std::set<std::string> used;
  for (const auto& [name, value] : params.items()) {
    std::string key = field_name(name);
    for (int n = 2; used.count(key) != 0; ++n) key = field_name(name) + "_" + std::to_string(n);
    used.insert(key);
    out.emplace_back(key, flat_value(value));
  }
  return out;
}

}  // namespace perfzero::export_formats
