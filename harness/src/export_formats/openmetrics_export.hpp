#pragma once
// The last run's metrics as OpenMetrics text, which is also valid Prometheus text (0.0.4): a file
// that node exporter's textfile collector picks up (docs/exports.md). Gauges only, no timestamps
// (the collector refuses files with them).
#include <filesystem>
#include <string>
#include <string_view>

#include "results/model.hpp"

namespace perfzero::export_formats {

inline constexpr const char* kOpenMetricsFile = "perfzero.prom";

// The whole exposition, ending with "# EOF".
std::string openmetrics_text(const results::Run& run);
// Writes perfzero.prom into `dir` atomically (a temporary "perfzero.prom.tmp.XXXXXX", which the
// collector ignores, then a rename), so a scrape never reads half a file.
void write_openmetrics(const results::Run& run, const std::filesystem::path& dir);

// A label value between its quotes: valid UTF-8, '\', '"' and line feeds escaped, other control
// characters as spaces.
std::string openmetrics_label_value(std::string_view text);
// A sample value: shortest round-trip decimal, or NaN, +Inf, -Inf.
std::string openmetrics_number(double value);

}  // namespace perfzero::export_formats
