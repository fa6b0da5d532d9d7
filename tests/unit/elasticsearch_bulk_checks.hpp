#pragma once
// Checks of an Elasticsearch bulk body and index template against the bulk API's rules, written
// from its documentation, independent of the exporter: no Elasticsearch server is packaged in
// Debian, so these rules are what the export is held to. Header-only (nlohmann-json) so that unit
// and integration tests share it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::testing {

struct BulkCheck {
  std::vector<std::string> problems;      // empty when the body is valid
  std::vector<nlohmann::json> actions;    // each action line
  std::vector<nlohmann::json> documents;  // each source line
};

// The bulk API: NDJSON, every line (the last included) ends with '\n'; an index or create action
// line is followed by its source line; every line is one JSON object; here, every action names
// its _index (the export is posted to /_bulk without an index in the path).
inline BulkCheck check_bulk(const std::string& body) {
  BulkCheck out;
  if (body.empty()) return out;
  if (body.back() != '\n') out.problems.push_back("the body does not end with a newline");
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl = body.find('\n'); nl != std::string::npos; nl = body.find('\n', start)) {
    lines.push_back(body.substr(start, nl - start));
    start = nl + 1;
  }
  if (start < body.size()) lines.push_back(body.substr(start));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string where = "line " + std::to_string(i + 1);
    nlohmann::json action;
    try {
      action = nlohmann::json::parse(lines[i]);
    } catch (const std::exception& e) {
      out.problems.push_back(where + ": not JSON: " + e.what());
      continue;
    }
    if (!action.is_object() || action.size() != 1 || !(action.contains("index") || action.contains("create"))) {
      out.problems.push_back(where + ": not an index or create action: " + lines[i]);
      continue;
    }
    const auto& meta = action.begin().value();
    if (!meta.is_object() || !meta.contains("_index") || !meta["_index"].is_string() ||
        meta["_index"].get<std::string>().empty()) {
      out.problems.push_back(where + ": the action has no _index");
    }
    if (meta.contains("_id") && (!meta["_id"].is_string() || meta["_id"].get<std::string>().size() > 512)) {
      out.problems.push_back(where + ": _id is not a string of at most 512 bytes");
    }
    out.actions.push_back(action);
    if (i + 1 >= lines.size()) {
      out.problems.push_back(where + ": an action without a source line");
      break;
    }
    ++i;
    try {
      auto doc = nlohmann::json::parse(lines[i]);
      if (!doc.is_object()) out.problems.push_back("line " + std::to_string(i + 1) + ": the source is not an object");
      out.documents.push_back(std::move(doc));
    } catch (const std::exception& e) {
      out.problems.push_back("line " + std::to_string(i + 1) + ": source not JSON: " + e.what());
    }
  }
  return out;
}

// YYYY-MM-DDTHH:MM:SS[.fff]Z with a real month and day, as strict_date_optional_time reads it.
inline bool looks_like_date(const std::string& s) {
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s.back() != 'Z') {
    return false;
  }
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18}) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  const int month = std::stoi(s.substr(5, 2));
  const int day = std::stoi(s.substr(8, 2));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && std::stoi(s.substr(11, 2)) < 24;
}

// Every field of every document is in the mapping's properties with a type its value fits:
// long (integers), double (numbers), date (ISO 8601 text), keyword (text, or lists of text).
inline std::vector<std::string> check_mapping_covers(const nlohmann::json& properties,
                                                     const std::vector<nlohmann::json>& documents) {
  std::vector<std::string> problems;
  for (std::size_t d = 0; d < documents.size(); ++d) {
    for (const auto& [field, value] : documents[d].items()) {
      const std::string where = "document " + std::to_string(d + 1) + " field '" + field + "'";
      if (!properties.contains(field)) {
        problems.push_back(where + ": not in the mapping");
        continue;
      }
      const std::string type = properties[field].value("type", "");
      bool fits = value.is_null();
      if (type == "long") fits = fits || value.is_number_integer();
      if (type == "double") fits = fits || value.is_number();
      if (type == "date") fits = fits || (value.is_string() && looks_like_date(value.get<std::string>()));
      if (type == "keyword") {
        fits = fits || value.is_string();
        if (value.is_array()) {
          fits = std::all_of(value.begin(), value.end(), [](const nlohmann::json& v) { return v.is_string(); });
        }
      }
      if (!fits) problems.push_back(where + ": " + value.dump() + " does not fit type '" + type + "'");
    }
  }
  return problems;
}

}  // namespace perfzero::testing
