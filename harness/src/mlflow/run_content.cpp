#include "mlflow/run_content.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "common/files.hpp"
#include "common/outcome.hpp"
#include "common/utf8.hpp"
#include "export_formats/export_samples.hpp"
#include "redact/redact.hpp"

namespace perfzero::mlflow {

namespace {

// MLflow's limits (mlflow/utils/validation.py): names of at most 250 characters from [\w/.\- :],
// parameter values of at most 6000, tag values of at most 8000.
constexpr std::size_t kMaxKey = 250;
constexpr std::size_t kMaxParamValue = 6000;
constexpr std::size_t kMaxTagValue = 8000;

// A metric, parameter or tag name MLflow accepts: another character becomes '_', and a leading '/'
// too (MLflow refuses names that look like absolute paths). Valid names are kept as they are.
std::string mlflow_key(const std::string& name) {
  std::string out;
  for (char c : redact::redact_text(name)) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                      c == '/' || c == '.' || c == '-' || c == ' ' || c == ':';
    out += keep ? c : '_';
  }
  if (out.empty() || out.front() == '/') out.insert(out.begin(), '_');
  if (out.size() > kMaxKey) out.resize(kMaxKey);
  return out;
}

std::string limited(std::string text, std::size_t limit) {
  text = utf8::valid(text);
  if (text.size() <= limit) return text;
  text.resize(limit - 3);
  return utf8::valid(text) + "...";
}

std::int64_t ms(double epoch_seconds) { return static_cast<std::int64_t>(std::llround(epoch_seconds * 1000.0)); }

std::string as_text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>()
                           : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void add_param(std::vector<KeyValue>& out, const std::string& name, const std::string& value) {
  out.push_back({mlflow_key(name), limited(redact::redact_value(name, value), kMaxParamValue)});
}

void add_tag(std::vector<KeyValue>& out, const std::string& name, const std::string& value) {
  if (value.empty()) return;  // an unknown field is left out rather than sent as ""
  out.push_back({mlflow_key(name), limited(redact::redact_text(value), kMaxTagValue)});
}

std::string string_at(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

std::vector<KeyValue> case_params(const results::Case& c) {
  std::vector<KeyValue> out;
  // The method's parameters under their own names, redacted as the reports redact them.
  const nlohmann::json params = redact::redacted_params(c.params);
  if (params.is_object()) {
    for (const auto& [name, value] : params.items()) add_param(out, name, as_text(value));
  }
  // The configuration the trials ran under, beside them.
  add_param(out, "perfzero.method", c.method);
  add_param(out, "perfzero.trials", std::to_string(c.trials_planned));
  if (c.auto_trials) add_param(out, "perfzero.trials_mode", "auto");
  add_param(out, "perfzero.warmup_trials", std::to_string(c.warmups_planned));
  add_param(out, "perfzero.timeout_seconds", fmt::format("{}", c.timeout_seconds));
  add_param(out, "perfzero.monitor_interval_ms", std::to_string(c.monitor_interval_ms));
  if (!c.launch.is_null()) add_param(out, "perfzero.launch", as_text(redact::redacted_json(c.launch)));
  if (c.external) {
    std::string command;
    for (const auto& word : redact::redact_argv(c.command)) command += (command.empty() ? "" : " ") + word;
    add_param(out, "perfzero.command", command);
    add_param(out, "perfzero.output", c.output);
    if (!c.working_dir.empty()) add_param(out, "perfzero.working_dir", c.working_dir);
  }
  return out;
}

std::vector<KeyValue> case_tags(const results::Run& run, const results::Case& c) {
  const auto fields = export_formats::run_fields(run);
  const auto& info = run.info;
  std::vector<KeyValue> out;
  add_tag(out, "perfzero.execution_id", info.execution_id);
  add_tag(out, "perfzero.execution_label", info.execution_label);
  add_tag(out, "perfzero.case", c.name);
  add_tag(out, "perfzero.method", c.method);
  add_tag(out, "perfzero.outcome", std::string(to_string(results::case_outcome(c))));
  add_tag(out, "perfzero.run_status", run.status);
  add_tag(out, "perfzero.harness_version", info.harness_version);
  add_tag(out, "perfzero.origin", c.origin);
  add_tag(out, "perfzero.platform_name", info.platform_name);
  add_tag(out, "perfzero.system_name", info.system_name);
  add_tag(out, "perfzero.ml_framework_build_label", info.ml_framework_build_label);
  add_tag(out, "host", string_at(info.system_info, "hostname"));
  add_tag(out, "cpu_model", fields.cpu_model);
  add_tag(out, "cloud", fields.cloud);
  add_tag(out, "instance_type", fields.instance_type);
  add_tag(out, "commit", info.source.commit);
  add_tag(out, "branch", info.source.branch);
  add_tag(out, "build_label", info.source.build_label);
  // MLflow's own tags: the UI shows the commit and the description of a run.
  add_tag(out, "mlflow.source.git.commit", info.source.commit);
  add_tag(out, "mlflow.note.content", c.description);
  return out;
}

// FINISHED when every trial succeeded (or was skipped), FAILED when one did not, KILLED when the
// perfzero run stopped before the case had all its trials; empty while it runs.
std::string mlflow_status(const results::Run& run, const results::Case& c) {
  if (run.status == "running") return "";
  if (run.status != "completed" && static_cast<int>(c.trials.size()) < c.trials_planned) return "KILLED";
  return counts_as_success(results::case_outcome(c)) ? "FINISHED" : "FAILED";
}

}  // namespace

std::string experiment_name(const results::Run& run) {
  const std::string label = redact::redact_text(run.info.execution_label);
  return label.empty() ? "perfzero" : label;
}

std::vector<CaseContent> run_content(const results::Run& run, const std::filesystem::path& run_dir) {
  std::map<const results::Case*, std::map<int, StepContent>> steps;
  for (const auto& s : export_formats::trial_samples(run)) {
    // An interrupted trial is run again by --resume under the same number: it is no step yet.
    if (!results::gets_trial_report(*s.trial)) continue;
    StepContent& step = steps[s.c][s.trial->number];
    step.step = s.trial->number;
    step.metrics.push_back({mlflow_key(s.metric), s.value, ms(s.time), s.trial->number});
  }
  std::vector<CaseContent> out;
  for (const auto& c : run.cases) {
    const auto it = steps.find(&c);
    if (it == steps.end()) continue;
    CaseContent content;
    content.key = c.name;
    content.run_name = limited(redact::redact_text(c.name), kMaxTagValue);
    content.params = case_params(c);
    content.tags = case_tags(run, c);
    content.status = mlflow_status(run, c);
    double first = 0;
    double last = 0;
    bool any = false;
    for (const auto& t : c.trials) {
      if (!results::gets_trial_report(t)) continue;
      first = any ? std::min(first, t.started_offset) : t.started_offset;
      last = std::max(last, t.started_offset + t.harness_seconds);
      any = true;
      if (!t.report.empty()) {
        content.artifacts.push_back({fmt::format("trial_{}/perfzero_summary.json", t.number), run_dir / t.report});
      }
    }
    content.start_time_ms = ms(run.info.execution_timestamp + first);
    content.end_time_ms = ms(run.info.execution_timestamp + last);
    for (auto& [number, step] : it->second) content.steps.push_back(std::move(step));
    out.push_back(std::move(content));
  }
  return out;
}

std::optional<std::string> artifact_text(const std::filesystem::path& file) {
  const auto text = files::read_text(file);
  if (!text) return std::nullopt;
  const auto json = nlohmann::json::parse(*text, nullptr, false);
  if (json.is_discarded()) return std::nullopt;
  return redact::redacted_json(json).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace perfzero::mlflow
