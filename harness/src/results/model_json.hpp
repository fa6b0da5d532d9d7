#pragma once
// The one JSON form of the results model, shared by the journal, summary.json and the reader, so
// what is written and what is read back cannot drift apart. The from_json functions throw
// nlohmann::json::exception on a wrong type; the reader adds the file and line.
#include <nlohmann/json.hpp>

#include "results/model.hpp"

namespace perfzero::results {

nlohmann::json trial_to_json(const Trial& t);
Trial trial_from_json(const nlohmann::json& j);

// A case without its trials (the journal writes those one by one).
nlohmann::json auto_trials_to_json(const std::optional<AutoTrials>& a);
nlohmann::json case_header_to_json(const Case& c);
Case case_header_from_json(const nlohmann::json& j);

nlohmann::json source_info_to_json(const SourceInfo& source);
SourceInfo source_info_from_json(const nlohmann::json& j);
nlohmann::json run_info_to_json(const RunInfo& info);
RunInfo run_info_from_json(const nlohmann::json& j);

nlohmann::json comparison_spec_to_json(const ComparisonSpec& c);
ComparisonSpec comparison_spec_from_json(const nlohmann::json& j);

// "1.1.0" -> 1; nullopt when it is not a version string.
std::optional<int> schema_major(const std::string& version);

}  // namespace perfzero::results
