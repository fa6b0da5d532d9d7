// One document per (trial, metric), flat (no nested objects), so that Kibana can aggregate on any
// field as the brief's dashboard did: run labels, machine, method, parameters, trial, outcome.
#include "export_formats/elasticsearch_export.hpp"

#include <cmath>

#include <fmt/format.h>

#include "common/files.hpp"
#include "common/outcome.hpp"
#include "common/utf8.hpp"
#include "export_formats/elasticsearch_mapping.hpp"
#include "export_formats/export_samples.hpp"
#include "export_formats/export_text.hpp"

namespace perfzero::export_formats {

namespace {

using nlohmann::json;

void put_text(json& doc, const char* field, const std::string& value) {
  if (!value.empty()) doc[field] = utf8::valid(value);
}

void put_date(json& doc, const char* field, double epoch_seconds) {
  if (const auto date = iso8601_utc(epoch_seconds)) doc[field] = *date;
}

json run_part(const RunFields& run) {
  json doc = json::object();
  put_date(doc, "run_timestamp", run.execution_timestamp);
  put_text(doc, "execution_id", run.execution_id);
  put_text(doc, "execution_label", run.execution_label);
  put_text(doc, "platform_name", run.platform_name);
  put_text(doc, "system_name", run.system_name);
  put_text(doc, "instance_type", run.instance_type);
  put_text(doc, "cpu_model", run.cpu_model);
  put_text(doc, "cloud", run.cloud);
  put_text(doc, "harness_version", run.harness_version);
  put_text(doc, "run_status", run.status);
  return doc;
}

// JSON has no NaN or infinity: such a value is left out and named in value_non_finite.
void put_value(json& doc, double value) {
  if (std::isfinite(value)) {
    doc["value"] = value;
  } else {
    doc["value_non_finite"] = std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity");
  }
}

json document(const json& run_doc, const Sample& s) {
  json doc = run_doc;
  put_date(doc, "@timestamp", s.time);
  put_text(doc, "case", s.c->name);
  put_text(doc, "method", s.c->method);
  doc["method_type"] = s.c->external ? "command" : "builtin";
  for (auto& [field, value] : flat_params(s.c->params)) {
    doc[field] = value.is_string() ? json(utf8::valid(value.get<std::string>())) : value;
  }
  doc["trial"] = s.trial->number;
  doc["outcome"] = std::string(to_string(s.trial->outcome));
  put_text(doc, "detail", s.trial->detail);
  // Always a list, empty when none: the index then maps `flags` whether or not this run had any, so
  // two runs' mappings agree (a filter on host_busy works across them).
  json flags = json::array();
  for (const auto& f : s.trial->flags) flags.push_back(utf8::valid(f));
  doc["flags"] = std::move(flags);
  put_text(doc, "metric", s.metric);
  put_text(doc, "unit", s.unit);
  put_value(doc, s.value);
  return doc;
}

// Stable per sample: loading the same file twice replaces documents instead of doubling them.
std::string document_id(const Sample& s, const std::string& execution_id) {
  return fnv1a_hex(fmt::format("{}\n{}\n{}\n{}\n{}", execution_id, s.c->name, s.trial->number, s.metric, s.occurrence));
}

std::string dump(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string ElasticsearchBulkWriter::add(const results::Run& run) {
  const RunFields fields = run_fields(run);
  const json run_doc = run_part(fields);
  const std::vector<Sample> samples = trial_samples(run);
  // Documents are built twice (to learn the mapping, then to write them) rather than all held.
  MappingBuilder mapping;
  for (const auto& s : samples) mapping.observe(document(run_doc, s));
  std::string bulk;
  for (const auto& s : samples) {
    json doc = document(run_doc, s);
    mapping.conform(doc);
    const json action = {{"index", {{"_index", index_}, {"_id", document_id(s, fields.execution_id)}}}};
    bulk += dump(action);
    bulk += '\n';
    bulk += dump(doc);
    bulk += '\n';
  }
  mapping_.absorb(mapping);
  return bulk;
}

std::string ElasticsearchBulkWriter::index_template() const {
  // Fields a later run adds (a new parameter) are keywords too, not guessed dates or full text.
  const json strings_as_keyword = {{"match_mapping_type", "string"},
                                   {"mapping", {{"type", "keyword"}, {"ignore_above", 1024}}}};
  json mappings = json::object();
  mappings["date_detection"] = false;
  mappings["dynamic_templates"] = json::array({json{{"strings_as_keyword", strings_as_keyword}}});
  mappings["properties"] = mapping_.properties();
  json index_template = json::object();
  index_template["index_patterns"] = json::array({index_ + "*"});
  index_template["template"] = json{{"mappings", std::move(mappings)}};
  return index_template.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

ElasticsearchExport elasticsearch_export(const results::Run& run, const std::string& index) {
  ElasticsearchBulkWriter writer(index);
  ElasticsearchExport out;
  out.bulk = writer.add(run);
  out.index_template = writer.index_template();
  return out;
}

void write_elasticsearch(const results::Run& run, const std::filesystem::path& dir) {
  const ElasticsearchExport e = elasticsearch_export(run);
  files::write_atomically(dir / kElasticsearchBulkFile, e.bulk);
  files::write_atomically(dir / kElasticsearchTemplateFile, e.index_template);
}

}  // namespace perfzero::export_formats
