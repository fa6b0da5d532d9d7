#pragma once
// Elasticsearch / OpenSearch: a bulk file (NDJSON: an action line, then the document; one document
// per trial and metric, run and machine fields flattened beside it) and the index template whose
// mapping is generated from the documents' values (docs/exports.md).
#include <filesystem>
#include <string>

#include "export_formats/elasticsearch_mapping.hpp"
#include "results/model.hpp"

namespace perfzero::export_formats {

inline constexpr const char* kElasticsearchIndex = "perfzero-results";
inline constexpr const char* kElasticsearchBulkFile = "elasticsearch_bulk.ndjson";
inline constexpr const char* kElasticsearchTemplateFile = "elasticsearch_template.json";

struct ElasticsearchExport {
  std::string bulk;            // for POST /_bulk: every line newline-terminated; empty for no trials
  std::string index_template;  // for PUT /_index_template/perfzero
};

// Many runs into one bulk file and one template (`perfzero report --format elasticsearch`): each
// run's lines are returned as it is added, so the runs need not all be held.
class ElasticsearchBulkWriter {
 public:
  explicit ElasticsearchBulkWriter(std::string index = kElasticsearchIndex) : index_(std::move(index)) {}
  // The run's bulk lines. Its documents agree with the run's own mapping; a field that is numeric in
  // one run and text in another is `keyword` in the template, and Elasticsearch indexes the numeric
  // values as their text.
  std::string add(const results::Run& run);
  // The index template covering every run added so far.
  std::string index_template() const;

 private:
  std::string index_;
  MappingBuilder mapping_;
};

ElasticsearchExport elasticsearch_export(const results::Run& run, const std::string& index = kElasticsearchIndex);
// Writes both files into `dir` (each atomically); throws std::system_error naming the file.
void write_elasticsearch(const results::Run& run, const std::filesystem::path& dir);

}  // namespace perfzero::export_formats
