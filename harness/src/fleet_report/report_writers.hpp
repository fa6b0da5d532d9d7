#pragma once
// The report's outputs, each reading only the FleetReport (docs/report.md shows them).
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "fleet_report/figure_text.hpp"
#include "fleet_report/report_model.hpp"

namespace perfzero::fleet_report {

// 1.1: intervals, ties, left-out trials, shape checks; 1.2: clusters (nodes, hosts, scaling)
inline constexpr const char* kReportSchemaVersion = "1.4.0";

nlohmann::json to_json(const FleetReport& report);
void write_markdown(const FleetReport& report, std::ostream& out);
void write_csv(const FleetReport& report, std::ostream& out);
// One self-contained page: inline CSS and SVG, no script or font from anywhere else.
void write_html(const FleetReport& report, std::ostream& out);

}  // namespace perfzero::fleet_report
