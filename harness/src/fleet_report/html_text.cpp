#include "fleet_report/html_text.hpp"

#include <cmath>

#include <fmt/format.h>

#include "common/utf8.hpp"

namespace perfzero::fleet_report::html {

std::string breakable(std::string_view text) {
  // Escaped a part at a time: the break characters are ASCII, never inside a UTF-8 sequence.
  std::string out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[' && i > start) {
      out += escape(text.substr(start, i - start)) + "<wbr>";
      start = i;
    } else if ((c == '.' || c == '-' || c == '_' || c == '/') && i + 1 < text.size()) {
      out += escape(text.substr(start, i + 1 - start)) + "<wbr>";
      start = i + 1;
    }
  }
  return out + escape(text.substr(start));
}

std::string sort_value(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return "";
  return fmt::format(" data-v=\"{}\"", *value);
}

}  // namespace perfzero::fleet_report::html
