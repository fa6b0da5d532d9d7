#pragma once
// How every human-facing table writes a measured value (terminal, Markdown, HTML, summary.md, the
// report and the history site): three significant digits with an SI prefix, "103 ms", "1.17 MB",
// "444 M points/s", "19.3 TB/s". JSON and CSV keep every digit instead. One place, so that a value
// reads the same wherever people look.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfzero::text {

// 3 significant digits with an SI prefix where the value needs one: a unit a prefix joins ("s",
// "B/s", "GB/s", "bytes" written "B") from 1 to 9999 as it is, else "ms", "µs", "kB"; a unit that
// stands apart ("points/s", "faults") or none from 0.01 to 9999 as it is, else "444 M points/s",
// "593 M". A unit with a prefix of its own (GB/s) takes the combined one. The dimensionless units
// "1" and "" print no unit. "" for no value or one that is not finite.
std::string si(const std::optional<double>& value, std::string_view unit = "");
// si(), or `none` ("-" in a table's cell) where it would be "".
std::string si_or(const std::optional<double>& value, std::string_view unit, std::string_view none);

// A median and its range at the median's prefix: "444 M points/s (408–480 M points/s)",
// "3.9 ms (2.6–10.2 ms)".
std::string si_range(double median, double low, double high, std::string_view unit);

// An axis's tick labels, all at the prefix of the largest: "0", "2 ms", "4 ms", ... "10 ms", with
// more digits where three would make two ticks read alike.
std::vector<std::string> si_ticks(const std::vector<double>& ticks, std::string_view unit);

}  // namespace perfzero::text
