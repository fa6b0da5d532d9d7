#include "results/model_json.hpp"

#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>

namespace perfzero::results {

namespace {

using nlohmann::json;

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::optional<double> read_optional_number(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<double>();
}

// A whole number the document holds where the model keeps an int: one out of int's range, or not
// whole, is a damaged document (a json error the readers report), never a conversion's undefined
// behaviour (the journal fuzzer found 2.3e94 as trials_planned).
int whole_number(const json& v, const char* key) {
  const bool whole = v.is_number_integer() || (v.is_number_float() && std::isfinite(v.get<double>()) &&
                                               std::trunc(v.get<double>()) == v.get<double>());
  if (whole && v.is_number_unsigned() && v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT_MAX)) {
    return static_cast<int>(v.get<std::uint64_t>());
  }
  if (whole && !v.is_number_unsigned()) {
    const double d = v.get<double>();
    if (d >= static_cast<double>(INT_MIN) && d <= static_cast<double>(INT_MAX)) return static_cast<int>(d);
  }
  throw json::out_of_range::create(
      406, std::string(key) + ": expected a whole number within int's range, got " + v.dump(), &v);
}

// whole_number of j[key], or `fallback` when the key is absent.
int whole_number_or(const json& j, const char* key, int fallback) {
  const auto it = j.find(key);
  return it == j.end() ? fallback : whole_number(*it, key);
}

json metric_to_json(const MetricValue& m) {
  json out = {{"name", m.name}, {"value", m.value}, {"unit", m.unit}};
  if (m.min_value) out["min_value"] = *m.min_value;
  if (m.max_value) out["max_value"] = *m.max_value;
  if (m.direction != Direction::unspecified) out["direction"] = std::string(to_string(m.direction));
  return out;
}

MetricValue metric_from_json(const json& j) {
  MetricValue m;
  m.name = j.at("name").get<std::string>();
  m.value = j.at("value").get<double>();
  m.unit = j.value("unit", "");
  m.min_value = read_optional_number(j, "min_value");
  m.max_value = read_optional_number(j, "max_value");
  if (const auto it = j.find("direction"); it != j.end() && it->is_string()) {
    m.direction = direction_from_string(it->get<std::string>()).value_or(Direction::unspecified);
  }
  return m;
}

}  // namespace

nlohmann::json trial_to_json(const Trial& t) {
  json metrics = json::array();
  for (const auto& m : t.metrics) metrics.push_back(metric_to_json(m));
  return {{"trial", t.number},
          {"warmup", t.warmup},
          {"outcome", to_string(t.outcome)},
          {"detail", t.detail},
          {"has_exception", t.has_exception},
          {"exit_code", t.exit_code ? json(*t.exit_code) : json(nullptr)},
          {"signal", t.signal.empty() ? json(nullptr) : json(t.signal)},
          {"wall_time", t.wall_time},
          {"self_wall_time", optional_number(t.self_wall_time)},
          {"harness_seconds", t.harness_seconds},
          {"started_offset", t.started_offset},
          {"metrics", std::move(metrics)},
          {"extras", t.extras},
          {"ml_framework_info", t.ml_framework_info},
          {"repetitions", t.repetitions},
          {"process",
           {{"max_rss", t.process.max_rss},
            {"max_vms", t.process.max_vms},
            {"max_cpu_percent", t.process.max_cpu_percent},
            {"detail", t.process.detail}}},
          {"samplers", t.samplers},
          {"flags", t.flags},
          {"ranks", t.ranks},
          {"dir", t.dir},
          {"report", t.report.empty() ? json(nullptr) : json(t.report)},
          {"resumed", t.resumed}};
}

Trial trial_from_json(const nlohmann::json& j) {
  Trial t;
  t.number = whole_number(j.at("trial"), "trial");
  t.warmup = j.value("warmup", false);
  const auto outcome = outcome_from_string(j.at("outcome").get<std::string>());
  if (!outcome)
    throw json::other_error::create(501, "unknown outcome '" + j.at("outcome").get<std::string>() + "'", &j);
  t.outcome = *outcome;
  t.detail = j.value("detail", "");
  t.has_exception = j.value("has_exception", false);
  if (j.contains("exit_code") && !j["exit_code"].is_null()) t.exit_code = whole_number(j["exit_code"], "exit_code");
  if (j.contains("signal") && !j["signal"].is_null()) t.signal = j["signal"].get<std::string>();
  t.wall_time = j.at("wall_time").get<double>();
  t.self_wall_time = read_optional_number(j, "self_wall_time");
  t.harness_seconds = j.value("harness_seconds", 0.0);
  t.started_offset = j.value("started_offset", 0.0);
  for (const auto& m : j.value("metrics", json::array())) {
    MetricValue metric = metric_from_json(m);
    // Runs before schema 1.3 gave an `output: none` command its own wall time as a metric too: it is
    // the trial's wall time, shown once.
    if (metric.name == "wall_time" && metric.value == t.wall_time) continue;
    t.metrics.push_back(std::move(metric));
  }
  t.extras = j.value("extras", json::object());
  t.ml_framework_info = j.value("ml_framework_info", json());
  t.repetitions = j.value("repetitions", json::array());
  if (const auto p = j.find("process"); p != j.end() && p->is_object()) {
    t.process.max_rss = p->value("max_rss", std::uint64_t{0});
    t.process.max_vms = p->value("max_vms", std::uint64_t{0});
    t.process.max_cpu_percent = p->value("max_cpu_percent", 0.0);
    t.process.detail = p->value("detail", json::object());
  }
  t.samplers = j.value("samplers", json::object());
  t.flags = j.value("flags", std::vector<std::string>{});
  t.ranks = j.value("ranks", json());
  t.dir = j.value("dir", "");
  if (j.contains("report") && j["report"].is_string()) t.report = j["report"].get<std::string>();
  t.resumed = j.value("resumed", false);
  return t;
}

nlohmann::json auto_trials_to_json(const std::optional<AutoTrials>& a) {
  if (!a) return nullptr;
  return {{"min_trials", a->min_trials},
          {"max_trials", a->max_trials},
          {"min_time_seconds", a->min_seconds},
          {"max_time_seconds", a->max_seconds},
          {"max_noise", a->max_noise}};
}

std::optional<AutoTrials> auto_trials_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  AutoTrials a;
  a.min_trials = j.value("min_trials", a.min_trials);
  a.max_trials = j.value("max_trials", a.max_trials);
  a.min_seconds = j.value("min_time_seconds", a.min_seconds);
  a.max_seconds = j.value("max_time_seconds", a.max_seconds);
  a.max_noise = j.value("max_noise", a.max_noise);
  return a;
}

nlohmann::json case_header_to_json(const Case& c) {
  json out = {{"name", c.name},
              {"method", c.method},
              {"description", c.description},
              {"origin", c.origin},
              {"method_type", method_type(c)},
              {"output", c.output},
              {"params", c.params},
              {"trials_planned", c.trials_planned},
              {"warmups_planned", c.warmups_planned},
              {"trials_auto", auto_trials_to_json(c.auto_trials)},
              {"timeout_seconds", c.timeout_seconds},
              {"monitor_interval_ms", c.monitor_interval_ms},
              {"command", c.command},
              {"working_dir", c.working_dir},
              {"launch", c.launch},
              {"dir", c.dir}};
  // Only for Python methods: the run.json of every other case stays as it was.
  if (!c.python.is_null()) out["python"] = c.python;
  if (!c.main_metric.empty()) out["main_metric"] = c.main_metric;
  return out;
}

Case case_header_from_json(const nlohmann::json& j) {
  Case c;
  c.name = j.at("name").get<std::string>();
  c.method = j.value("method", c.name);
  c.description = j.value("description", "");
  c.origin = j.value("origin", "");
  c.python = j.value("python", json());
  c.main_metric = j.value("main_metric", "");
  set_method_type(c, j.value("method_type", "builtin"));
  c.output = j.value("output", "perfzero");
  c.params = j.value("params", json::object());
  c.trials_planned = whole_number_or(j, "trials_planned", 0);
  c.warmups_planned = whole_number_or(j, "warmups_planned", 0);
  if (const auto a = j.find("trials_auto"); a != j.end()) c.auto_trials = auto_trials_from_json(*a);
  c.timeout_seconds = j.value("timeout_seconds", 0.0);
  c.monitor_interval_ms = whole_number_or(j, "monitor_interval_ms", 0);
  c.command = j.value("command", std::vector<std::string>{});
  c.working_dir = j.value("working_dir", "");
  c.launch = j.value("launch", json());
  c.dir = j.value("dir", "");
  return c;
}

nlohmann::json source_info_to_json(const SourceInfo& s) {
  return {{"commit", s.commit}, {"branch", s.branch}, {"build_label", s.build_label}, {"from", s.from}};
}

// Tolerant: a run written before 1.8.0 has no source, and a hand-edited one may hold anything.
SourceInfo source_info_from_json(const nlohmann::json& j) {
  SourceInfo s;
  if (!j.is_object()) return s;
  const auto text = [&](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  s.commit = text("commit");
  s.branch = text("branch");
  s.build_label = text("build_label");
  if (const auto it = j.find("from"); it != j.end() && it->is_object()) s.from = *it;
  return s;
}

nlohmann::json run_info_to_json(const RunInfo& i) {
  return {{"schema_version", i.schema_version},
          {"execution_id", i.execution_id},
          {"execution_timestamp", i.execution_timestamp},
          {"execution_label", i.execution_label},
          {"platform_name", i.platform_name},
          {"system_name", i.system_name},
          {"instance_type", i.instance_type},
          {"ml_framework_build_label", i.ml_framework_build_label},
          {"output_dir", i.output_dir},
          {"suite_files", i.suite_files},
          {"harness_version", i.harness_version},
          {"harness_info", i.harness_info},
          {"site_packages", i.site_packages},
          {"env_vars", i.env_vars},
          {"flags", i.flags},
          {"source", source_info_to_json(i.source)},
          {"setup_info", i.setup_info},
          {"system_info", i.system_info},
          {"system", i.system}};
}

RunInfo run_info_from_json(const nlohmann::json& j) {
  RunInfo i;
  i.schema_version = j.value("schema_version", std::string(kSchemaVersion));
  i.execution_id = j.at("execution_id").get<std::string>();
  i.execution_timestamp = j.value("execution_timestamp", 0.0);
  i.execution_label = j.value("execution_label", "");
  i.platform_name = j.value("platform_name", "");
  i.system_name = j.value("system_name", "");
  i.instance_type = j.value("instance_type", "");
  i.ml_framework_build_label = j.value("ml_framework_build_label", "");
  i.output_dir = j.value("output_dir", "");
  i.suite_files = j.value("suite_files", std::vector<std::string>{});
  i.harness_version = j.value("harness_version", "");
  i.harness_info = j.value("harness_info", json::object());
  i.site_packages = j.value("site_packages", json::object());
  i.env_vars = j.value("env_vars", json::object());
  i.flags = j.value("flags", json::object());
  i.source = source_info_from_json(j.value("source", json()));
  i.setup_info = j.value("setup_info", json::object());
  i.system_info = j.value("system_info", json::object());
  i.system = j.value("system", json::object());
  return i;
}

nlohmann::json comparison_spec_to_json(const ComparisonSpec& c) {
  return {{"name", c.name},
          {"ours", {{"method", c.ours_case}, {"metric", c.ours_metric}}},
          {"theirs", {{"method", c.theirs_case}, {"metric", c.theirs_metric}}},
          {"goal", optional_number(c.goal)}};
}

ComparisonSpec comparison_spec_from_json(const nlohmann::json& j) {
  ComparisonSpec c;
  c.name = j.at("name").get<std::string>();
  c.ours_case = j.at("ours").at("method").get<std::string>();
  c.ours_metric = j.at("ours").at("metric").get<std::string>();
  c.theirs_case = j.at("theirs").at("method").get<std::string>();
  c.theirs_metric = j.at("theirs").at("metric").get<std::string>();
  c.goal = read_optional_number(j, "goal");
  return c;
}

std::optional<int> schema_major(const std::string& version) {
  int major = 0;
  const auto [ptr, ec] = std::from_chars(version.data(), version.data() + version.size(), major);
  if (ec != std::errc{} || ptr == version.data() || (ptr != version.data() + version.size() && *ptr != '.')) {
    return std::nullopt;
  }
  return major;
}

}  // namespace perfzero::results
