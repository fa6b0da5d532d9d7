#pragma once
// Text that goes into the HTML page: escaped, and valid UTF-8 whatever bytes a run recorded.
#include <optional>
#include <string>
#include <string_view>

namespace perfzero::fleet_report::html {

// Escapes <, >, &, " and ' and replaces each byte that is not part of valid UTF-8 with U+FFFD.
std::string escape(std::string_view text);

// escape(), with a line-break opportunity (<wbr>) after each '.', '-', '_', '/' and before '[': a
// long shape or method name wraps at its parts in a narrow column instead of overflowing it.
std::string breakable(std::string_view text);

// A data-v attribute holding a cell's exact value for sorting (` data-v="4.44e+08"`); "" for none.
std::string sort_value(const std::optional<double>& value);

}  // namespace perfzero::fleet_report::html
