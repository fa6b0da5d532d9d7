#pragma once
// Text that goes into the HTML page: escaped, and valid UTF-8 whatever bytes a run recorded.
#include <string>
#include <string_view>

namespace perfzero::report::html {

// Escapes <, >, &, " and ' and replaces each byte that is not part of valid UTF-8 with U+FFFD.
std::string escape(std::string_view text);

}  // namespace perfzero::report::html
