#pragma once
// The report's outputs, each reading only the Report (docs/report.md shows them).
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "report/report_model.hpp"

namespace perfzero::report {

inline constexpr const char* kReportSchemaVersion = "1.0.0";

nlohmann::json to_json(const Report& report);
void write_markdown(const Report& report, std::ostream& out);
void write_csv(const Report& report, std::ostream& out);
// One self-contained page: inline CSS and SVG, no script or font from anywhere else.
void write_html(const Report& report, std::ostream& out);

// Shared wording: "$0.0123", "1.23e-05" style numbers with a few significant digits, "" for none.
std::string money(const std::optional<double>& usd);
std::string number(const std::optional<double>& value);
std::string cell_status(const Cell& cell);  // "ok", "not run", or "failed 2/5: why"

}  // namespace perfzero::report
