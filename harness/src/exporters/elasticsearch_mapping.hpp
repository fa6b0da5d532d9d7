#pragma once
// The mapping of the Elasticsearch export, generated from the documents' values as the product
// brief's user did: numbers numeric, dates `date`, everything else `keyword`.
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::exporters {

// The "properties" of a mapping that covers every field of every document. A field whose values
// disagree (a number in one document, text in another) becomes `keyword`, and its numbers in
// `documents` become text, so that each document agrees with the mapping.
nlohmann::json generate_mapping(std::vector<nlohmann::json>& documents);

}  // namespace perfzero::exporters
