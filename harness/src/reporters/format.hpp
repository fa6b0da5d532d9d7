#pragma once
// Small text helpers the table-like reporters share.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace perfzero::reporters {

// RFC 4180: quoted when it holds a comma, quote or line break; quotes doubled.
std::string csv_field(const std::string& value);
// A Markdown table cell: '|' escaped, line breaks as spaces.
std::string md_cell(const std::string& value);
// Six significant digits; `missing` when there is no value.
std::string number(const std::optional<double>& value, const std::string& missing);
// Dumps JSON for a file: invalid UTF-8 replaced, never thrown on.
std::string dump_json(const nlohmann::json& value, int indent);

}  // namespace perfzero::reporters
