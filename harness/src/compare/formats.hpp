#pragma once
// The outputs of `perfzero compare`: Markdown (a pull-request comment), JSON (machines), and a
// terminal table, coloured only when asked (on a TTY) (docs/compare.md).
#include <string>

#include "compare/compare_runs.hpp"

namespace perfzero::compare {

std::string to_markdown(const RunComparison& report);
std::string to_json_text(const RunComparison& report);
std::string to_terminal(const RunComparison& report, bool colour);
// JUnit XML (docs/ci.md): one test case per row (classname the method, name the metric); a gated
// slower row is a failure with its figures, a row that could not be judged is skipped; stamped now.
std::string to_junit(const RunComparison& report, const std::string& suite_name);

// Shared by the three: "+10.2%", "-", "[+8.1%, +12.0%]", a value with its unit as every table writes it
// ("103 ms", "1.17 MB": common/si_number.hpp), "-" for none.
std::string percent(const std::optional<double>& fraction);
std::string interval(const MetricComparison& m);
std::string value_text(const std::optional<double>& v, std::string_view unit);
std::string headline(const RunComparison& report);
// "slower", or "slower (not gated)" where --metrics leaves the row out of the gate.
std::string verdict_text(const MetricComparison& m);
// What to do about unreliable, unknown or --use_flagged rows: lines for a person, empty when none.
std::string advice(const RunComparison& report);
// The significance column: the p-value, or z against the history ("z=6.1"), or "-".
std::string significance(const MetricComparison& m);

}  // namespace perfzero::compare
