#pragma once
// Text that goes into the HTML page: escaped, and valid UTF-8 whatever bytes a run recorded.
#include <optional>
#include <string>
#include <string_view>

#include "common/escape.hpp"

namespace perfzero::fleet_report::html {

// The page's escaping is the one module's (common/escape.hpp: text::markup), under its short name.
inline std::string escape(std::string_view text) { return text::markup(text); }

// escape(), with a line-break opportunity (<wbr>) after each '.', '-', '_', '/' and before '[': a
// long shape or method name wraps at its parts in a narrow column instead of overflowing it.
std::string breakable(std::string_view text);

// A data-v attribute holding a cell's exact value for sorting (` data-v="4.44e+08"`); "" for none.
std::string sort_value(const std::optional<double>& value);

}  // namespace perfzero::fleet_report::html
