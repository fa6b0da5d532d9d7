#pragma once
// The mapping of the Elasticsearch export, generated from the documents' values as the product
// brief's user did: numbers numeric, dates `date`, everything else `keyword`.
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace perfzero::export_formats {

// Sees every document once (observe), then gives the mapping and makes each document agree with
// it (conform). Two passes, so that a large run's documents need not all be held at once.
class MappingBuilder {
 public:
  enum class Kind { none, integer, floating, date, text };

  void observe(const nlohmann::json& document);
  // The "properties" of a mapping that covers every field of every observed document.
  nlohmann::json properties() const;
  // A field whose values disagree (a number in one document, text in another) is `keyword`: its
  // numbers become text, so that the document agrees with the mapping.
  void conform(nlohmann::json& document) const;
  // Adds what another builder observed (one run's documents into a mapping for many runs).
  void absorb(const MappingBuilder& other);

 private:
  std::map<std::string, Kind> kinds_;
};

}  // namespace perfzero::export_formats
