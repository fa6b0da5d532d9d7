#include "export_formats/influx_line_protocol.hpp"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "common/files.hpp"
#include "common/outcome.hpp"
#include "common/utf8.hpp"
#include "export_formats/export_samples.hpp"
#include "export_formats/export_text.hpp"

namespace perfzero::export_formats {

namespace {

using Tags = std::map<std::string, std::string>;  // sorted by key, as InfluxDB prefers

void put_tag(Tags& tags, const std::string& key, const std::string& value) {
  // A tag cannot be empty: an unknown field is left out rather than written as "".
  if (!influx_tag_text(value).empty()) tags[key] = value;
}

Tags run_tags(const RunFields& run) {
  Tags tags;
  put_tag(tags, "execution_label", run.execution_label);
  put_tag(tags, "platform_name", run.platform_name);
  put_tag(tags, "system_name", run.system_name);
  put_tag(tags, "instance_type", run.instance_type);
  put_tag(tags, "cpu_model", run.cpu_model);
  put_tag(tags, "cloud", run.cloud);
  return tags;
}

Tags sample_tags(const Tags& run, const Sample& s) {
  Tags tags = run;
  put_tag(tags, "case", s.c->name);
  put_tag(tags, "method", s.c->method);
  for (const auto& [field, value] : flat_params(s.c->params)) {
    put_tag(tags, field, value.is_string() ? value.get<std::string>() : value.dump());
  }
  // The trial is a tag so that two trials never share a series and a time (runs read back from
  // older formats have no start offsets), and so is a metric's repeat within one trial.
  put_tag(tags, "trial", std::to_string(s.trial->number));
  if (s.occurrence > 0) put_tag(tags, "occurrence", std::to_string(s.occurrence));
  put_tag(tags, "outcome", std::string(to_string(s.trial->outcome)));
  put_tag(tags, "metric", s.metric);
  put_tag(tags, "unit", s.unit);
  return tags;
}

std::string fields(const Sample& s, const RunFields& run) {
  // A float field has no NaN or infinity in line protocol: such a value is named as text instead.
  std::string out;
  if (std::isfinite(s.value)) {
    out = fmt::format("value={}", s.value);
  } else {
    out = fmt::format("value_non_finite=\"{}\"", std::isnan(s.value) ? "NaN" : (s.value > 0 ? "+Inf" : "-Inf"));
  }
  out += ",execution_id=" + influx_string_field(run.execution_id);
  if (s.trial->exit_code) out += fmt::format(",exit_code={}i", *s.trial->exit_code);
  if (!s.trial->flags.empty()) {
    std::string flags;
    for (const auto& f : s.trial->flags) {
      if (!flags.empty()) flags += ',';
      flags += f;
    }
    out += ",flags=" + influx_string_field(flags);
  }
  return out;
}

}  // namespace

std::string influx_tag_text(std::string_view text) {
  std::string out = controls_as_spaces(utf8::valid(text));
  for (char& c : out) {
    if (c == '\\') c = '/';
  }
  return out;
}

std::string influx_tag(std::string_view text) {
  std::string out;
  for (char c : influx_tag_text(text)) {
    if (c == ',' || c == ' ' || c == '=') out += '\\';
    out += c;
  }
  return out;
}

std::string influx_string_field(std::string_view text) {
  std::string out = "\"";
  for (char c : controls_as_spaces(utf8::valid(text))) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string influx_line_protocol(const results::Run& run) {
  const RunFields fields_of_run = run_fields(run);
  const Tags common = run_tags(fields_of_run);
  std::string out;
  for (const auto& s : trial_samples(run)) {
    out += kInfluxMeasurement;
    for (const auto& [key, value] : sample_tags(common, s)) {
      out += ',';
      out += influx_tag(key);
      out += '=';
      out += influx_tag(value);
    }
    out += ' ';
    out += fields(s, fields_of_run);
    if (const auto ns = epoch_nanoseconds(s.time)) out += fmt::format(" {}", *ns);
    out += '\n';
  }
  return out;
}

void write_influx(const results::Run& run, const std::filesystem::path& dir) {
  files::write_atomically(dir / kInfluxFile, influx_line_protocol(run));
}

}  // namespace perfzero::export_formats
