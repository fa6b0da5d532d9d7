#pragma once
// The report's outputs, each reading only the Report (docs/report.md shows them).
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "report/figure_text.hpp"
#include "report/report_model.hpp"

namespace perfzero::report {

inline constexpr const char* kReportSchemaVersion = "1.1.0";  // 1.1: intervals, ties, left-out trials, shape checks

nlohmann::json to_json(const Report& report);
void write_markdown(const Report& report, std::ostream& out);
void write_csv(const Report& report, std::ostream& out);
// One self-contained page: inline CSS and SVG, no script or font from anywhere else.
void write_html(const Report& report, std::ostream& out);

}  // namespace perfzero::report
