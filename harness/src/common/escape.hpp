#pragma once
// The one module for escaping text into what the harness writes: the terminal, CSV, Markdown, and
// HTML and XML (the report's page, the history site, JUnit files). A method, metric or case name is
// whatever a suite, a worker or a method's result said; these keep such a name from acting as
// something else where it is written: an escape sequence on a terminal, a formula in a spreadsheet,
// markup in a page. JSON outputs keep names byte for byte and need none of this.
#include <string>
#include <string_view>

namespace perfzero::text {

// Each control character (C0, DEL, and C1 as UTF-8's two bytes C2 80..C2 9F, which some terminals
// obey) becomes '?': nothing a name holds reaches a terminal or a text file as a command.
std::string printable(std::string_view text);

// One CSV field (RFC 4180 quoting) that a spreadsheet reads as text: a value starting with '=', '+',
// '-', '@', a tab or a carriage return gets a leading "'", as OWASP's CSV injection advice says, and
// control characters become '?'. For names and units; numbers are written as they are.
std::string csv_cell(std::string_view text);

// Markdown text, in a table cell or a list line, that renders as the text it holds: '|' escaped, '<',
// '>' and '&' as HTML entities (renderers on CI systems pass raw HTML through), line breaks and tabs
// as spaces, other control characters as '?'.
std::string md_cell(std::string_view text);

// Text in HTML or XML, as element content or a quoted attribute value: '&', '<', '>', '"' and '\''
// as references (&#39; is both HTML's and XML's), malformed UTF-8, control characters but tab,
// line feed and carriage return, and the non-characters U+FFFE and U+FFFF as U+FFFD, which XML 1.0
// allows nowhere else and a page shows as what it is.
std::string markup(std::string_view text);

}  // namespace perfzero::text
