#pragma once
// InfluxDB line protocol, one point per (trial, metric) in measurement "perfzero": what identifies
// a series (method, metric, run labels, machine) as tags, the value and the run id as fields,
// the trial's start in nanoseconds as the time (docs/exports.md).
#include <filesystem>
#include <string>
#include <string_view>

#include "results/model.hpp"

namespace perfzero::export_formats {

inline constexpr const char* kInfluxMeasurement = "perfzero";
inline constexpr const char* kInfluxFile = "influx.lp";

// Every point, one per line, each line newline-terminated; empty for a run without trials.
std::string influx_line_protocol(const results::Run& run);
// Writes influx.lp into `dir` atomically; throws std::system_error naming the file.
void write_influx(const results::Run& run, const std::filesystem::path& dir);

// What a tag holds once written, and so what a query reads back: valid UTF-8, with control
// characters as spaces and backslashes as '/' (InfluxDB 1.x has no escape for either in a tag).
std::string influx_tag_text(std::string_view text);
// A tag key or value escaped for a line: influx_tag_text with commas, spaces and '=' escaped.
std::string influx_tag(std::string_view text);
// A string field value, quoted: '"' and '\' escaped, valid UTF-8, control characters as spaces.
std::string influx_string_field(std::string_view text);

}  // namespace perfzero::export_formats
